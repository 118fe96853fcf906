// A helper that returns a status the block shares (a flag in shared
// memory, read after a barrier), called with a lane's own values beside
// the shared pointer: the status is one value for the block, though one of
// the arguments varies, so the fallback under `if (!status)` and its
// barrier are reached by every thread. Held-out vLLM's top-k refinement
// returns `false` this way (2 false findings). The look-alikes return
// something of the lane's own, or pass the helper a lane's own limit,
// and do split the block.
// strict: WL007

struct RefineFlags {
    unsigned ok;
    unsigned counts[256];
};

__device__ void rescan_block(float *out) {
    __syncthreads();
    out[threadIdx.x] = 0.0f;
}

__device__ bool refine_values(const float (&vals)[4], void *raw) {
    auto *flags = static_cast<RefineFlags *>(raw);
    const unsigned tid = threadIdx.x;
    if (tid == 0) flags->ok = 1;
    __syncthreads();
    for (int i = 0; i < 4; ++i) {
        if (vals[i] < 0.0f) atomicExch(&flags->ok, 0u);
    }
    __syncthreads();
    if (flags->ok == 0) return false;
    atomicAdd(&flags->counts[tid % 256], 1u);
    __syncthreads();
    return true;
}

__global__ void __launch_bounds__(256) refine_or_rescan(const float *in, float *out, unsigned want) {
    extern __shared__ char raw[];
    auto *flags = reinterpret_cast<RefineFlags *>(raw);
    float vals[4];
    for (int i = 0; i < 4; ++i) vals[i] = in[threadIdx.x * 4 + i];
    if (threadIdx.x == 0) flags->counts[0] = static_cast<unsigned>(in[blockIdx.x]);
    __syncthreads();
    if (flags->counts[0] > want) {
        if (!refine_values(vals, raw)) {
            rescan_block(out);
        }
    }
}

// The lane's own verdict.
__device__ bool values_positive(const float (&vals)[4], void *raw) {
    (void)raw;
    return vals[0] > 0.0f && vals[3] > 0.0f;
}

__global__ void __launch_bounds__(256) refine_own_verdict(const float *in, float *out) {
    extern __shared__ char raw[];
    float vals[4];
    for (int i = 0; i < 4; ++i) vals[i] = in[threadIdx.x * 4 + i];
    if (!values_positive(vals, raw)) {
        rescan_block(out); // expect: WL007
    }
}

// The same status, and a limit: the lane's own when the caller passes it.
__device__ bool refine_upto(const float (&vals)[4], void *raw, int limit) {
    auto *flags = static_cast<RefineFlags *>(raw);
    if (threadIdx.x == 0) flags->ok = vals[0] < 0.0f ? 0u : 1u;
    __syncthreads();
    return flags->ok != 0 && limit >= 8;
}

__global__ void __launch_bounds__(256) refine_block_limit(const float *in, float *out) {
    extern __shared__ char raw[];
    float vals[4];
    for (int i = 0; i < 4; ++i) vals[i] = in[threadIdx.x * 4 + i];
    if (!refine_upto(vals, raw, blockDim.x / 32)) {
        rescan_block(out);
    }
}

__global__ void __launch_bounds__(256) refine_lane_limit(const float *in, float *out) {
    extern __shared__ char raw[];
    float vals[4];
    for (int i = 0; i < 4; ++i) vals[i] = in[threadIdx.x * 4 + i];
    if (!refine_upto(vals, raw, threadIdx.x)) {
        rescan_block(out); // expect: WL007
    }
}
