// Function templates whose width is a defaulted template parameter: a call
// that writes no width runs the default, and is checked where it is made.
// strict: WL005

template <int SEGMENT = 12>
__device__ float segment_sum(float v) {
    for (int o = SEGMENT / 2; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o, SEGMENT);
    return v;
}

// The default, 12, is not a power of two.
__global__ void sums_by_default(float *out) {
    out[threadIdx.x] = segment_sum(out[threadIdx.x]); // expect: WL005
}

// Look-alike: the call writes a width of 8, which replaces the default.
__global__ void sums_of_eight(float *out) {
    out[threadIdx.x] = segment_sum<8>(out[threadIdx.x]);
}

template <int SEGMENT = 16>
__device__ float segment_max(float v) {
    for (int o = SEGMENT / 2; o > 0; o /= 2)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o, SEGMENT));
    return v;
}

// Look-alike: a default of 16.
__global__ void maxima_by_default(float *out) {
    out[threadIdx.x] = segment_max(out[threadIdx.x]);
}

// Look-alike: the argument's type deduces the width (eight elements), so
// the default of 6 is never used.
template <int N = 6>
__device__ float spread_first(const float (&vals)[N]) {
    return __shfl_sync(0xffffffffu, vals[0], 0, N);
}

__global__ void spreads_eight(float *out) {
    float vals[8];
    for (int i = 0; i < 8; ++i)
        vals[i] = out[threadIdx.x * 8 + i];
    out[threadIdx.x] = spread_first(vals);
}
