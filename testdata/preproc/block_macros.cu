// Function-like macros that expand to a loop header and govern the block
// written after their use: `CUDA_KERNEL_LOOP(i, n) { … }`, the grid-stride
// loop of many CUDA code bases. The use parses as a function definition
// nested in the kernel's body; its block is analysed under the expansion's
// header, as the compiler runs it. (An `if` header: wl002/if_macro_block.cu.)
// strict: WL002, WL007

#define FULL_MASK 0xffffffffu
#define CUDA_KERNEL_LOOP(i, n)                                       \
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n);     \
         i += blockDim.x * gridDim.x)
#define FOR_EACH_TILE(t, tiles) for (int t = 0; t < (tiles); ++t)
#define FOR_EACH_LANE_ITEM(j, n) for (int j = threadIdx.x & 31; j < (n); j += 32)
#define FOR_EACH_STEP(o) for (int o = 16; o > 0; o >>= 1)

// The last block's tail threads leave the grid-stride loop while the
// others wait at its barrier.
__global__ void grid_stride_rescale(float *x, int n) {
    __shared__ float scale;
    CUDA_KERNEL_LOOP(i, n) {
        if (threadIdx.x == 0)
            scale = x[blockIdx.x];
        __syncthreads(); // expect: WL007
        x[i] *= scale;
    }
}

// Look-alike: the same number of tiles in every thread.
__global__ void tile_loop_rescale(float *x, int tiles) {
    __shared__ float scale;
    FOR_EACH_TILE(t, tiles) {
        if (threadIdx.x == 0)
            scale = x[t];
        __syncthreads();
        x[t * blockDim.x + threadIdx.x] *= scale;
        __syncthreads();
    }
}

// Lanes past the last item leave the strided loop early; the full mask
// still names them.
__global__ void pair_sums(const float *in, float *out, int n) {
    float acc = 0.0f;
    FOR_EACH_LANE_ITEM(j, n) {
        acc += __shfl_xor_sync(FULL_MASK, in[j], 1); // expect: WL002
    }
    out[threadIdx.x] = acc;
}

// Look-alike: a butterfly every lane runs.
__global__ void butterfly_totals(float *x) {
    float v = x[threadIdx.x];
    FOR_EACH_STEP(o) {
        v += __shfl_xor_sync(FULL_MASK, v, o);
    }
    x[threadIdx.x] = v;
}

// A macro this file does not define: its block is not analysed (no
// finding either way).
__global__ void unknown_macro(float *x, int n) {
    __shared__ float s[128];
    VENDOR_LOOP(i, n) {
        s[threadIdx.x] = x[i];
        __syncthreads();
    }
}

void launch_all(float *x, float *y, int n, int tiles) {
    grid_stride_rescale<<<8, 128>>>(x, n);
    tile_loop_rescale<<<8, 128>>>(x, tiles);
    pair_sums<<<1, 32>>>(x, y, n);
    butterfly_totals<<<1, 32>>>(x);
    unknown_macro<<<8, 128>>>(x, n);
}
