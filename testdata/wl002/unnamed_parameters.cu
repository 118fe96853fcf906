// strict: WL002
// Parameters without a name (a tag chosen for overloading, a pointer the
// body ignores) still take their arguments: the arguments after them bind
// the parameters after them. Before, an unnamed parameter lost its slot,
// so `n` below took the tag's argument and a run chose it freely.
#define FULL_MASK 0xffffffffu

struct ByWarpTag {};

template <class Tag>
__device__ float up_bounded_swap(Tag, int n, float v) {
    if ((threadIdx.x & 31) < n) {
        v += __shfl_xor_sync(FULL_MASK, v, 1); // expect: WL002
    }
    return v;
}

// Look-alike: the same shape, and every call passes the whole warp.
__device__ float up_whole_swap(const float *, int n, float v) {
    if ((threadIdx.x & 31) < n) {
        v += __shfl_xor_sync(FULL_MASK, v, 1);
    }
    return v;
}

// Lanes 16-31 skip a shuffle whose mask names them.
__global__ void up_half_kernel(float *out) {
    out[threadIdx.x] = up_bounded_swap(ByWarpTag{}, 16, out[threadIdx.x]);
}

__global__ void up_whole_kernel(const float *in, float *out) {
    out[threadIdx.x] = up_whole_swap(in, 32, out[threadIdx.x]);
}

void up_launch(const float *in, float *out) {
    up_half_kernel<<<2, 64>>>(out);
    up_whole_kernel<<<2, 64>>>(in, out);
}
