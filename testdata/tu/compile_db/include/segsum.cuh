#pragma once
// Sum within segments of SEG_WIDTH lanes; the build chooses the width.
__device__ inline int seg_sum(int v) {
    for (int d = 1; d < SEG_WIDTH; d *= 2) {
        v += __shfl_down_sync(0xffffffffu, v, d, SEG_WIDTH); // expect: WL005
    }
    return v;
}
