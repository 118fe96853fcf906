// Look-alike of hipified_amd_builtins_clean.cu: a CUDA source that
// mentions AMD builtins only where nvcc never compiles them (a
// `__has_builtin` test the configuration cannot decide, a HIP platform
// branch, comments and strings). It is CUDA code, and its unguarded
// legacy shuffle is still reported.
#include <cuda_runtime.h>

__device__ int broadcast_bin(int bin, int leader) {
#if __has_builtin(__builtin_amdgcn_readlane)
    return __builtin_amdgcn_readlane(bin, leader);
#else
    return __shfl_sync(0xffffffffu, bin, leader);
#endif
}

__device__ float pair_first(float a) {
#if defined(__HIP_PLATFORM_AMD__)
    __hip_bfloat16 h = __float2bfloat16(a);
    return __bfloat162float(h);
#else
    return a; // on AMD this would be __builtin_amdgcn_mov_dpp
#endif
}

__global__ void legacy_rotate(const float *in, float *out, int *bins) {
    const char *note = "__builtin_amdgcn_ds_swizzle is not used here";
    (void)note;
    float v = in[threadIdx.x];
    v = __shfl_xor(v, 1); // expect: WL001
    out[threadIdx.x] = pair_first(v);
    bins[threadIdx.x] = broadcast_bin(bins[threadIdx.x], 0);
}
