// A kernel launched through a local holding its address
// (`auto kernel = &finalize<Traits, 4>; kernel<<<grid, block>>>(…)`, the
// shape of launchers that pick an instance first). Before, the launch was
// not linked to the kernel: it ran under an assumed block of 128 threads
// and the partial warp of its 48-thread blocks was missed.

template <int STEP>
__global__ void finalize_rows(const float *in, float *out) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    v += __shfl_down_sync(0xffffffffu, v, STEP); // expect: WL002
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Look-alike: launched the same way, in blocks of whole warps.
template <int STEP>
__global__ void finalize_cols(const float *in, float *out) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    v += __shfl_down_sync(0xffffffffu, v, STEP);
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

void run_finalize(const float *in, float *out, int blocks, cudaStream_t stream) {
    auto rows = &finalize_rows<4>;
    rows<<<blocks, 48, 0, stream>>>(in, out);
    auto cols = finalize_cols<4>;
    cols<<<blocks, 96, 0, stream>>>(in, out);
}
