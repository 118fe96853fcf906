// The library half of a header/source pair: a pool that hands out fixed-size
// slots, one atomic per warp. It asks which lanes are here with a full-mask
// ballot of a constant, so it assumes a whole warp calls it.
#pragma once

__device__ inline int pool_slot(int *next_free)
{
    unsigned arrived = __ballot_sync(0xffffffffu, true); // expect: WL008
    int lane = threadIdx.x & 31;
    int leader = __ffs(arrived) - 1;
    int first = 0;
    if (lane == leader)
        first = atomicAdd(next_free, __popc(arrived));
    first = __shfl_sync(arrived, first, leader);
    return first + __popc(arrived & ((1u << lane) - 1u));
}
