// One source for both vendors: the AMD branch uses HIP's maskless warp
// functions, the CUDA branch the `_sync` forms. The configuration is a CUDA
// device pass, so the HIP branches are not compiled and not checked.
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
#include <hip/hip_runtime.h>
#define WAVE_BROADCAST(x, src) __shfl((x), (src))
#else
#define WAVE_BROADCAST(x, src) __shfl_sync(0xffffffffu, (x), (src))
#endif

__device__ int leader_value(int x) {
#ifdef __HIP__
    return __shfl(x, 0);
#else
    return __shfl_sync(0xffffffffu, x, 0);
#endif
}

__global__ void spread_first(int *data) {
    int v = data[threadIdx.x];
    data[threadIdx.x] = leader_value(v) + WAVE_BROADCAST(v, 1);
}
