// A library header of function objects and the helpers that apply them.
#pragma once

struct LaneSum {
    __device__ int operator()(int v) const {
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, o);
        return v;
    }
};

struct Doubler {
    __device__ int operator()(int v) const { return 2 * v; }
};

// Applies `op` in the lanes of the lower half-warp only.
template <class Op>
__device__ int in_low_half(int v, Op op) {
    if ((threadIdx.x & 31) < 16)
        v = op(v); // expect: WL002
    return v;
}
