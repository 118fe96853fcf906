// strict: WL005
// Segment widths returned by `constexpr` functions: a free one and a
// class's static member, each returning a constant. Before, the call was
// opaque to the analysis and the width unknown: silent at every level.
#define FULL_MASK 0xffffffffu

constexpr int cw_row_width() { return 12; }
constexpr int cw_half_width() { return 16; }

struct CwTile {
    __host__ __device__ static constexpr int width() { return 10; }
    __host__ __device__ static constexpr int lanes() { return 8; }
};

__global__ void cw_row_broadcast(float *out) {
    float v = out[threadIdx.x];
    v = __shfl_sync(FULL_MASK, v, 0, cw_row_width()); // expect: WL005
    out[threadIdx.x] = v;
}

__global__ void cw_tile_sum(float *out) {
    float v = out[threadIdx.x];
    v += __shfl_down_sync(FULL_MASK, v, 1, CwTile::width()); // expect: WL005
    out[threadIdx.x] = v;
}

// Look-alikes: 16- and 8-lane segments.
__global__ void cw_half_broadcast(float *out) {
    float v = out[threadIdx.x];
    v = __shfl_sync(FULL_MASK, v, 0, cw_half_width());
    v += __shfl_down_sync(FULL_MASK, v, 1, CwTile::lanes());
    out[threadIdx.x] = v;
}
