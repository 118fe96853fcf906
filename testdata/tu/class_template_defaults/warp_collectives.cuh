// A library header in the shape of CUB's warp collectives: the logical
// warp width is a class template parameter with a default, and most code
// names the class with the element type alone (`LaneReduce<float>`).
#pragma once

template <typename T, int LOGICAL_LANES = 32>
struct LaneReduce {
    struct Scratch {
        T slot[LOGICAL_LANES];
    };
    Scratch &scratch;
    unsigned member_mask;

    __device__ LaneReduce(Scratch &s)
        : scratch(s),
          member_mask(LOGICAL_LANES == 32 ? 0xffffffffu
                                          : (1u << LOGICAL_LANES) - 1u) {}

    // Every lane of the logical warp must arrive: the mask names them all.
    __device__ T Sum(T v) {
        for (int o = LOGICAL_LANES / 2; o > 0; o /= 2)
            v += __shfl_down_sync(member_mask, v, o, LOGICAL_LANES);
        return v;
    }
};

// A segmented sum whose segment width defaults to six lanes: not a power
// of two, which the shuffle's width must be.
template <typename T, int SEGMENT = 6>
struct SegmentSum {
    __device__ T total(T v) {
        return v + __shfl_xor_sync(0xffffffffu, v, 1, SEGMENT);
    }
};
