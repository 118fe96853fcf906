// Values loaded from one address for the whole block are uniform (clean);
// values loaded per lane are not (findings).

__constant__ int active_rows;

struct Shape {
    int rows;
    int cols;
};

// One element per block: every lane of the block reads the same word.
__global__ void per_block_flag(const int *flags, float *out) {
    float v = out[threadIdx.x];
    if (flags[blockIdx.x] != 0) {
        v += __shfl_xor_sync(0xffffffffu, v, 2);
    }
    out[threadIdx.x] = v;
}

// Look-alike: one element per lane.
__global__ void per_lane_flag(const int *flags, float *out) {
    float v = out[threadIdx.x];
    if (flags[threadIdx.x] != 0) {
        v += __shfl_xor_sync(0xffffffffu, v, 2); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// `__constant__` data and a field of a by-value parameter are shared.
__global__ void constant_and_field(Shape shape, float *out) {
    float v = out[threadIdx.x];
    if (active_rows > 4 && shape.cols > 1) {
        v += __shfl_down_sync(0xffffffffu, v, 1);
    }
    out[threadIdx.x] = v;
}
