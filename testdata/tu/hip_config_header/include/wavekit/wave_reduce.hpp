// strict: WL001, WL007
// A wavefront reduction of the HIP library. `__shfl_xor` and `__ballot` are
// HIP's own functions here (no mask argument, 64-wide wavefronts), which
// the header knows only through the configuration header's include of HIP's
// runtime: nothing here is legacy CUDA. HIP code is not checked against
// CUDA's rules at all, so its barriers are not either.
#pragma once
#include "wavekit/config.hpp"

template <int Width>
WAVEKIT_DEVICE float wave_max(float x) {
    for (int step = Width / 2; step > 0; step >>= 1)
        x = fmaxf(x, __shfl_xor(x, step));
    return x;
}

WAVEKIT_DEVICE unsigned long long wave_votes(bool p) { return __ballot(p); }

__global__ void wave_partials(const float *in, float *out) {
    __shared__ float partial[64];
    if (threadIdx.x < 40) {
        partial[threadIdx.x] = wave_max<64>(in[threadIdx.x]);
        __syncthreads();
    }
    out[threadIdx.x] = partial[threadIdx.x % 40];
}
