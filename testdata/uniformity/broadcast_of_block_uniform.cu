// strict: WL007
// A block-uniform value broadcast from lane 0 (by `__shfl_sync` or by an
// inline-PTX `shfl.sync.idx` helper) is still block-uniform: every lane's
// copy is the same, so a loop it bounds around `__syncthreads()` is run
// alike by the whole block (clean). Broadcasting a per-warp value makes
// the bound the same only within each warp, and a block barrier inside a
// loop it bounds waits for warps that left earlier (finding).

__device__ __forceinline__ unsigned lane0_copy(unsigned x) {
    unsigned r;
    asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;" : "=r"(r) : "r"(x));
    return r;
}

__global__ void __launch_bounds__(256) tiles_per_block(const float *in, float *out, int total) {
    __shared__ float stage[256];
    const int items = lane0_copy((total - blockIdx.x + gridDim.x - 1) / gridDim.x);
    const int rounds = __shfl_sync(0xffffffff, total / 256, 0);
    for (int i = 0; i < items; i++) {
        const int base = (blockIdx.x + i * gridDim.x) * 256;
        stage[threadIdx.x] = in[base + threadIdx.x];
        __syncthreads();
        out[base + threadIdx.x] = stage[255 - threadIdx.x];
        __syncthreads();
    }
    for (int r = 0; r < rounds; r++) {
        stage[threadIdx.x] += 1.0f;
        __syncthreads();
    }
}

__global__ void __launch_bounds__(256) tiles_per_warp(const float *in, float *out, const int *counts) {
    __shared__ float stage[256];
    const int items = lane0_copy(counts[threadIdx.x / 32]);
    for (int i = 0; i < items; i++) {
        stage[threadIdx.x] = in[i * 256 + threadIdx.x];
        __syncthreads(); // expect: WL007
        out[i * 256 + threadIdx.x] = stage[255 - threadIdx.x];
        __syncthreads(); // expect: WL007
    }
}

void launch(const float *in, float *out, const int *counts, int total) {
    tiles_per_block<<<16, 256>>>(in, out, total);
    tiles_per_warp<<<16, 256>>>(in, out, counts);
}
