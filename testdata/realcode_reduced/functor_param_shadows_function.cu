// Reduced from a false positive on CUB's batched top-k agent (as copied in
// FlashInfer): a per-key helper takes the work as a callable parameter
// named `apply` and calls it in a block-stride loop. Another file of the
// translation unit defines a device function `apply` with full-mask
// shuffles, and warplint took the call for that function. C++ name lookup
// finds the parameter first: the call runs the caller's lambda, which has
// no warp primitive. A correct tool reports nothing here.
// strict: WL002

__device__ float apply(float v) {
    for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffffu, v, d);
    return v;
}

template <typename Op>
__device__ void for_each_key(const int *keys, int n, Op &&apply) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        apply(keys[i]);
    }
}

__global__ void histogram(const int *keys, int n, unsigned *bins) {
    for_each_key(keys, n, [&](int k) { atomicAdd(&bins[k & 255], 1u); });
}

// The free function itself, called in the same divergent loop, is a bug.
__global__ void sums(const float *x, int n, float *out) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        out[i] = apply(x[i]); // expect: WL002
    }
}
