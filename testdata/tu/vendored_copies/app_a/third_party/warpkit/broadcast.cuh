// warpkit 1.0, vendored by app_a: the broadcast names all 32 lanes.
// app_b vendors warpkit 2.0 under the same path; each app's kernels must see
// their own copy (the one nearest to the including file).
#pragma once

__device__ inline float wk_broadcast(float v) {
    return __shfl_sync(0xffffffffu, v, 0);
}
