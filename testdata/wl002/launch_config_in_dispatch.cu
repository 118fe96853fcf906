// A launch config declared once and filled in inside a dispatch macro's
// block, next to the launch (FlashInfer's norm kernels): the block that
// write states is the one the launch runs. With 32-wide rows each warp is
// one row, and a shuffle only row 0 runs is whole warps'. With 16-wide rows
// every warp spans two rows, and row 1's lanes never reach it.
// strict: WL002

#define DISPATCH_WIDTH(w, W, ...)      \
    if (w == 4) {                      \
        constexpr int W = 4;           \
        __VA_ARGS__                    \
    } else {                           \
        constexpr int W = 8;           \
        __VA_ARGS__                    \
    }

__global__ void first_row_sum_per_warp(float *x, int w) {
    float s = x[threadIdx.y * blockDim.x + threadIdx.x] * w;
    if (threadIdx.y == 0) {
        for (int o = 16; o > 0; o /= 2) {
            s += __shfl_xor_sync(0xffffffff, s, o);
        }
    }
    x[threadIdx.y * blockDim.x + threadIdx.x] = s;
}

__global__ void first_row_sum_half_warp(float *x, int w) {
    float s = x[threadIdx.y * blockDim.x + threadIdx.x] * w;
    if (threadIdx.y == 0) {
        s += __shfl_xor_sync(0xffffffff, s, 8); // expect: WL002
    }
    x[threadIdx.y * blockDim.x + threadIdx.x] = s;
}

cudaError_t launch_row_sums(float *x, int width) {
    cudaLaunchConfig_t config;
    config.gridDim = dim3(64);
    DISPATCH_WIDTH(width, W, {
        auto kernel = first_row_sum_per_warp;
        config.blockDim = dim3(32, 4);
        cudaLaunchKernelEx(&config, kernel, x, W);
    });
    return cudaSuccess;
}

cudaError_t launch_half_rows(float *x, int width) {
    cudaLaunchConfig_t config;
    config.gridDim = dim3(64);
    DISPATCH_WIDTH(width, W, {
        auto kernel = first_row_sum_half_warp;
        config.blockDim = dim3(16, 8);
        cudaLaunchKernelEx(&config, kernel, x, W);
    });
    return cudaSuccess;
}
