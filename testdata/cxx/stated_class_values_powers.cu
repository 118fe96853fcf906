// Look-alike of `stated_class_values.cu`: the same class, written only
// as `Segments<8>` and `Segments<32>`. Its sub-warp butterfly run without
// a caller takes those widths, not a width no instance has (it was a
// confirmed WL006 with `LANES = 20`).
template <int N>
struct Int2Type {
    enum { VALUE = N };
};

template <int LANES>
struct Segments {
    // The whole warp.
    __device__ float sum(float v, Int2Type<true>) {
        for (int step = 16; step > 0; step /= 2) {
            v += __shfl_xor_sync(0xffffffffu, v, step);
        }
        return v;
    }
    // A butterfly over the segment of LANES lanes the calling lane is in.
    __device__ float sum(float v, Int2Type<false>) {
        unsigned lane = threadIdx.x % 32;
        unsigned mask = ((1u << LANES) - 1) << (lane / LANES * LANES);
        for (int step = LANES / 2; step > 0; step /= 2) {
            v += __shfl_xor_sync(mask, v, step);
        }
        return v;
    }
    __device__ float sum(float v) { return sum(v, Int2Type<(LANES == 32)>()); }
    __device__ static float total(float v) { return Segments<LANES>().sum(v); }
};

// Look-alikes: segments of 8 lanes, and the whole warp, every lane.
__global__ void eight_lane_totals(const float *in, float *out) {
    out[threadIdx.x] = Segments<8>().sum(in[threadIdx.x]);
}

__global__ void warp_totals(const float *in, float *out) {
    out[threadIdx.x] = Segments<32>::total(in[threadIdx.x]);
}
