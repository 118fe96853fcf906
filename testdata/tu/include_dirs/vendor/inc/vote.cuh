#pragma once
// Current vendored helpers: the group defaults to the whole warp.
__device__ inline int take_from(int v, int src_lane, unsigned group = 0xffffffffu) {
    return __shfl_sync(group, v, src_lane);
}
