// Kernel templates compiled only as the instances the file lists
// (`template __global__ void k<…>(…);`, as generated kernels are): each
// listed instance is checked with its own values.
// strict: WL005

// Listed at 12 and 16: segments of 12 lanes are not a power of two.
template <int SEGMENT>
__global__ void segment_totals(float *out) {
    float v = out[threadIdx.x];
    for (int o = 1; o < SEGMENT; o *= 2)
        v += __shfl_xor_sync(0xffffffffu, v, o, SEGMENT); // expect: WL005
    out[threadIdx.x] = v;
}
template __global__ void segment_totals<12>(float *);
template __global__ void segment_totals<16>(float *);

// Look-alike: listed at 8 and 32 only.
template <int SEGMENT>
__global__ void segment_maxima(float *out) {
    float v = out[threadIdx.x];
    for (int o = 1; o < SEGMENT; o *= 2)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o, SEGMENT));
    out[threadIdx.x] = v;
}
template __global__ void segment_maxima<8>(float *);
template __global__ void segment_maxima<32>(float *);

// Look-alike: the odd width is listed only with the flag that skips the
// shuffle, as `extern template` in another unit would name it.
template <int SEGMENT, bool kExchange>
__global__ void maybe_exchange(float *out) {
    float v = out[threadIdx.x];
    if (kExchange)
        v += __shfl_down_sync(0xffffffffu, v, 1, SEGMENT);
    out[threadIdx.x] = v;
}
template __global__ void maybe_exchange<16, true>(float *);
extern template __global__ void maybe_exchange<6, false>(float *);
