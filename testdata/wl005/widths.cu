// Shuffle widths must be powers of two no larger than 32.
constexpr int kGroup = 6;
#define SEGMENT 12

__global__ void groups_of_six(const int *in, int *out) {
    int v = in[threadIdx.x];
    out[threadIdx.x] = __shfl_sync(0xffffffff, v, 0, kGroup); // expect: WL005
}

__global__ void down_by_segment(const float *in, float *out) {
    float v = in[threadIdx.x];
    v += __shfl_down_sync(0xffffffff, v, 1, SEGMENT); // expect: WL005
    out[threadIdx.x] = v;
}

__global__ void valid_widths(const float *in, float *out) {
    float v = in[threadIdx.x];
    v += __shfl_xor_sync(0xffffffff, v, 1, 8);
    v += __shfl_down_sync(0xffffffff, v, 2, 16);
    v += __shfl_up_sync(0xffffffff, v, 1, warpSize);
    out[threadIdx.x] = v;
}
