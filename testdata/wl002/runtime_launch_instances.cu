// strict: WL002
// Kernel templates launched through the runtime API instead of <<<…>>>:
// the instance a launch names is the one that runs, with the block its
// configuration holds. Each template below is launched with one value;
// a run choosing another value (say 20 lanes for the whole-warp ones)
// would show a bug the code never has.
#include <cuda_runtime.h>

// Launched as rtl_fold_lanes<16>: lanes 16-31 skip a shuffle naming them.
template <int LANES>
__global__ void rtl_fold_lanes(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane < LANES) {
        for (int d = 16; d > 0; d >>= 1) {
            v += __shfl_down_sync(0xffffffffu, v, d); // expect: WL002
        }
    }
    if (lane == 0) {
        out[blockIdx.x] = v;
    }
}

// Look-alike: launched as rtl_fold_all<32> only.
template <int LANES>
__global__ void rtl_fold_all(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane < LANES) {
        for (int d = 16; d > 0; d >>= 1) {
            v += __shfl_down_sync(0xffffffffu, v, d);
        }
    }
    if (lane == 0) {
        out[blockIdx.x] = v;
    }
}

// Look-alike: rtl_fold_plain<32> through cudaLaunchKernel, whose kernel is
// a cast function pointer and whose arguments are an array.
template <int LANES>
__global__ void rtl_fold_plain(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane < LANES) {
        v += __shfl_xor_sync(0xffffffffu, v, 1);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// A host launcher template forwards its value: rtl_fold_forwarded<8> runs,
// and lanes 8-31 skip the shuffle.
template <int LANES>
__global__ void rtl_fold_forwarded(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane < LANES) {
        v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// A kernel that takes its lane count as an argument: the launch passes
// the block's own width, so every lane of each warp passes the guard.
__global__ void rtl_fold_block_wide(const int *in, int *out, int lanes) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (threadIdx.x < lanes) {
        v += __shfl_xor_sync(0xffffffffu, v, 1);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Look-alike: a kernel template named with its namespace at a <<<…>>>
// launch (`rtl::rtl_fold_scoped<32>`), whose template arguments were
// dropped before with the scope.
namespace rtl {
template <int LANES>
__global__ void rtl_fold_scoped(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane < LANES) {
        v += __shfl_xor_sync(0xffffffffu, v, 1);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
} // namespace rtl

void rtl_launch_scoped(const int *in, int *out) {
    rtl::rtl_fold_scoped<32><<<4, 64>>>(in, out);
}

void rtl_launch_partial(const int *in, int *out, cudaStream_t stream) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(4);
    cfg.blockDim = dim3(64);
    cfg.stream = stream;
    cudaLaunchKernelEx(&cfg, rtl_fold_lanes<16>, in, out);
}

void rtl_launch_whole(const int *in, int *out, cudaStream_t stream) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(4);
    cfg.blockDim = dim3(64);
    cfg.stream = stream;
    auto kernel = rtl_fold_all<32>;
    cudaLaunchKernelEx(&cfg, kernel, in, out);
}

void rtl_launch_plain(const int *in, int *out, cudaStream_t stream) {
    void *args[] = {&in, &out};
    cudaLaunchKernel((const void *)rtl_fold_plain<32>, dim3(4), dim3(64), args, 0, stream);
}

template <int LANES>
void rtl_launch_forwarded(const int *in, int *out) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(4);
    cfg.blockDim = dim3(32);
    cudaLaunchKernelEx(&cfg, rtl_fold_forwarded<LANES>, in, out);
}

void rtl_launch_block_wide(const int *in, int *out) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(4);
    cfg.blockDim = dim3(96);
    cudaLaunchKernelEx(&cfg, rtl_fold_block_wide, in, out, cfg.blockDim.x);
}

void rtl_run_all(const int *in, int *out, cudaStream_t stream) {
    rtl_launch_partial(in, out, stream);
    rtl_launch_whole(in, out, stream);
    rtl_launch_plain(in, out, stream);
    rtl_launch_forwarded<8>(in, out);
    rtl_launch_block_wide(in, out);
    rtl_launch_scoped(in, out);
}
