// The look-alike: the same reduction in the portable library, which the
// CUDA build compiles with the removed legacy shuffle.
#pragma once
#include "portkit/compat.cuh"

__device__ inline float row_max(float x) {
    for (int step = PORTKIT_WAVE / 2; step > 0; step >>= 1)
        x = fmaxf(x, __shfl_xor(x, step)); // expect: WL001
    return x;
}

// The same partial sums in the portable library's CUDA build: threads 40
// and up skip the barrier the others wait at.
__global__ void row_partials(const float *in, float *out) {
    __shared__ float partial[64];
    if (threadIdx.x < 40) {
        partial[threadIdx.x] = row_max(in[threadIdx.x]);
        __syncthreads(); // expect: WL007
    }
    out[threadIdx.x] = partial[threadIdx.x % 40];
}
