// `i < size<0>(frag)` in a loop condition: tree-sitter reads it as a call
// of a template `i` (`i<size < 0>(frag)`), but `i` is a variable, so it is
// the comparison of `i` with CuTe's shape query, one value in every thread.
// The loops below run the same trips in every lane: the whole warp reaches
// each shuffle and barrier inside them.
// strict: WL002, WL006, WL007

template <class Frag>
__device__ float row_max(Frag& frag, float v) {
    // Every lane reaches the shuffle; the narrowed mask leaves 16-31 out.
    for (int i = 0; i < size<0>(frag); ++i) {
        v = fmaxf(v, __shfl_xor_sync(0x0000ffff, v, 1)); // expect: WL006
    }
    return v;
}

// Look-alike: the same loop with the whole warp's mask.
template <class Frag>
__device__ float row_max_whole_warp(Frag& frag, float v) {
    for (int i = 0; i < size<0>(frag); ++i) {
        v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, 1));
    }
    return v;
}

// An arithmetic tail binds tighter than `<`: `i < (size<1>(frag) - 1)`.
template <class Frag>
__device__ float pairwise(Frag& frag, float v) {
    for (int j = 0; j < size<1>(frag) - 1; ++j) {
        v += __shfl_down_sync(0xffffffff, v, 1);
    }
    return v;
}

// A barrier in a loop over a shape: every thread of the block trips as
// often, so all of them reach it.
template <class Tile>
__device__ void stage_tiles(Tile& tile, float* smem, const float* src) {
    for (int k = 0; k < cute::size<2>(tile) * 2; ++k) {
        smem[threadIdx.x] = src[k * blockDim.x + threadIdx.x];
        __syncthreads();
    }
}

// Not a look-alike: the bound is the lane's own, so lanes leave the loop
// at different trips and the rest of the warp never joins the shuffle.
template <class Frag>
__device__ float lane_bounded(Frag& frag, float v) {
    int lane = threadIdx.x % 32;
    for (int i = 0; lane < size<0>(frag) * 8 + i; ++i) {
        v += __shfl_xor_sync(0xffffffff, v, 1); // expect: WL002
    }
    return v;
}
