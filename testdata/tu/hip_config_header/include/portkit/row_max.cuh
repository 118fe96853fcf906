// The look-alike: the same reduction in the portable library, which the
// CUDA build compiles with the removed legacy shuffle.
#pragma once
#include "portkit/compat.cuh"

__device__ inline float row_max(float x) {
    for (int step = PORTKIT_WAVE / 2; step > 0; step >>= 1)
        x = fmaxf(x, __shfl_xor(x, step)); // expect: WL001
    return x;
}
