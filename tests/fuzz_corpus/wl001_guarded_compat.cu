// A compatibility layer in the style real libraries ship: old toolkits and
// old architectures keep the legacy path behind guards. Nothing here is a
// finding when building for sm_70+ with CUDA >= 9.
#include <cuda.h>

__device__ __forceinline__ unsigned vote_all_lanes(int pred) {
#if CUDA_VERSION >= 9000
    return __ballot_sync(0xffffffffu, pred);
#else
    return __ballot(pred);
#endif
}

__device__ __forceinline__ float shfl_down_compat(float v, int d) {
#if __CUDACC_VER_MAJOR__ < 9
    return __shfl_down(v, d);
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
    return __shfl_down(v, d);
#else
    return __shfl_down_sync(0xffffffffu, v, d);
#endif
}

#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ < 300)
#define OLD_ANY(p) __any(p)
#endif

#if CUDART_VERSION < 9000
#define SHFL_XOR(v, m) __shfl_xor(v, m)
#else
#define SHFL_XOR(v, m) __shfl_xor_sync(0xffffffffu, v, m)
#endif

__global__ void use_compat(float *data) {
    float v = data[threadIdx.x];
    v += shfl_down_compat(v, 1);
    v += SHFL_XOR(v, 2);
    if (vote_all_lanes(v > 0.0f) == 0xffffffffu) data[threadIdx.x] = v;
}
