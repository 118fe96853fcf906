// A warp sum that dispatches on the configuration header's switch. A
// current toolkit defines it, so the `_sync` branch is the one compiled:
// its full mask is checked at every call site, and the legacy branch is
// not (it is not compiled, and it is a portability dispatch anyway).
#pragma once
#include "config.cuh"

__device__ __forceinline__ float shufkit_sum(float v) {
#ifdef SHUFKIT_HAS_SYNC
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(SHUFKIT_FULL, v, d);
#else
    for (int d = 16; d > 0; d /= 2) v += __shfl_xor(v, d);
#endif
    return v;
}
