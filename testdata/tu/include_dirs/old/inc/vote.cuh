#pragma once
// Stale copy kept for reference: callers had to name the group.
__device__ inline int take_from(int v, int src_lane, unsigned group) {
    return __shfl_sync(group, v, src_lane);
}
