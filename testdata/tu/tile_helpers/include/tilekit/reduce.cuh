// A library's tile reductions: a tile of the size the caller picks, passed
// by reference. A caller whose tile is only partly there breaks them.
#pragma once
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ inline float warp_total(const cg::thread_block_tile<32> &t, float v) {
    return cg::reduce(t, v, cg::plus<float>());
}

template <int N>
__device__ float tile_total(const cg::thread_block_tile<N> &t, float v) {
    for (int o = N / 2; o > 0; o /= 2) {
        v += t.shfl_xor(v, o);
    }
    return v;
}
