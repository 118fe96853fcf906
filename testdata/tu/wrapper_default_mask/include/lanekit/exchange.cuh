// A small lane-exchange library: wrappers whose mask defaults to the whole warp.
#pragma once

#define LANEKIT_ALL_LANES 0xffffffffu

__device__ inline float lk_xor(float v, int lane_bits, unsigned mask = LANEKIT_ALL_LANES) {
    return __shfl_xor_sync(mask, v, lane_bits);
}

__device__ inline int lk_count(int pred, unsigned mask = LANEKIT_ALL_LANES) {
    return __popc(__ballot_sync(mask, pred));
}

__device__ inline float lk_pair_sum(float v) {
    return v + lk_xor(v, 1);
}
