// Shared memory reached through a helper's pointer parameter or a class's
// pointer member: the caller passes a `__shared__` array.

// The lockstep tail of a block reduction, in a helper.
__device__ void warp_tail(volatile float *sdata, int tid) {
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16]; // expect: WL004
    sdata[tid] += sdata[tid + 8];  // expect: WL004
}

__global__ void block_total(const float *in, float *out) {
    __shared__ float sdata[128];
    int tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * 128 + tid];
    __syncthreads();
    if (tid < 64)
        sdata[tid] += sdata[tid + 64];
    __syncthreads();
    if (tid < 32)
        warp_tail(sdata, tid);
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

// The same exchange on a global buffer: not shared memory, not WL004's.
__global__ void global_tail(float *scratch) {
    int tid = threadIdx.x;
    if (tid < 32)
        warp_tail(scratch + blockIdx.x * 64, tid);
}

// One butterfly step per call, no barrier between a lane's read of its
// partner's slot and the partner's write of it.
__device__ void butterfly_step(float *buf, int lane, int o) {
    buf[lane] += buf[lane ^ o]; // expect: WL004
}

// The same step in phases: clean.
__device__ void butterfly_step_phased(float *buf, int lane, int o) {
    float other = buf[lane ^ o];
    __syncwarp();
    buf[lane] += other;
    __syncwarp();
}

__global__ void butterflies(float *out) {
    __shared__ float racy[32];
    __shared__ float phased[32];
    int lane = threadIdx.x % 32;
    racy[lane] = out[threadIdx.x];
    phased[lane] = out[threadIdx.x];
    __syncwarp();
    for (int o = 16; o > 0; o >>= 1) {
        butterfly_step(racy, lane, o);
        butterfly_step_phased(phased, lane, o);
    }
    __syncwarp();
    out[threadIdx.x] = racy[lane] + phased[lane];
}

// A scratch object keeping a pointer to the caller's shared array.
struct WarpScratch {
    float *buf;
    int lane;
    __device__ explicit WarpScratch(float *b) : buf(b), lane(threadIdx.x % 32) {}

    __device__ float racy_sum(float v) {
        buf[lane] = v;
        __syncwarp();
        for (int o = 16; o > 0; o >>= 1)
            buf[lane] += buf[lane ^ o]; // expect: WL004
        __syncwarp();
        return buf[lane];
    }

    __device__ float phased_sum(float v) {
        buf[lane] = v;
        __syncwarp();
        for (int o = 16; o > 0; o >>= 1) {
            float other = buf[lane ^ o];
            __syncwarp();
            buf[lane] += other;
            __syncwarp();
        }
        return buf[lane];
    }
};

__global__ void scratch_sums(float *out) {
    __shared__ float a[32];
    __shared__ float b[32];
    WarpScratch racy(a);
    WarpScratch phased(b);
    float v = out[threadIdx.x];
    out[threadIdx.x] = racy.racy_sum(v) + phased.phased_sum(v);
}
