// A port that targets AMD GPUs through HIP: `__shfl_xor` and `__ballot` are
// HIP's own warp functions here (64-wide wavefronts, no mask argument), not
// the CUDA intrinsics removed in CUDA 9. Nothing is a WL001 finding.
#include <hip/hip_runtime.h>

__device__ float wave_max(float x) {
    for (int step = 32; step > 0; step >>= 1)
        x = fmaxf(x, __shfl_xor(x, step));
    return x;
}

__global__ void count_positive(const float *values, unsigned long long *counts) {
    unsigned long long votes = __ballot(values[threadIdx.x] > 0.0f);
    if (threadIdx.x % 64 == 0) counts[threadIdx.x / 64] = votes;
}
