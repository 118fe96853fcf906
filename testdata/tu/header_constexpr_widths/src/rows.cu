// strict: WL005
#include <rowkit/shape.h>

// Widths from the header's constexpr functions: 12, 6 and 10 lanes are not
// powers of two, so the shuffles' segments are not what the code expects.
__global__ void row_sums(float *p) {
    float v = p[threadIdx.x];
    v += __shfl_xor_sync(0xffffffffu, v, 1, rowkit::row_lanes()); // expect: WL005
    v += __shfl_xor_sync(0xffffffffu, v, 1, segment_lanes()); // expect: WL005
    v += __shfl_xor_sync(0xffffffffu, v, 1, PackedRow::lanes()); // expect: WL005
    p[threadIdx.x] = v;
}

// Look-alikes: 16 and 32 lanes.
__global__ void tile_sums(float *p) {
    float v = p[threadIdx.x];
    v += __shfl_xor_sync(0xffffffffu, v, 1, rowkit::tile_lanes());
    v += __shfl_xor_sync(0xffffffffu, v, 1, WideRow::lanes());
    p[threadIdx.x] = v;
}

// Look-alike: in a member, an unqualified `segment_lanes()` is the class's
// own (8 lanes), not the header's free function (6).
struct OctetRow {
    static constexpr int segment_lanes() { return 8; }
    __device__ float sum(float v) const {
        return v + __shfl_xor_sync(0xffffffffu, v, 1, segment_lanes());
    }
};

__global__ void octet_sums(float *p) {
    OctetRow row;
    p[threadIdx.x] = row.sum(p[threadIdx.x]);
}
