// `__ldg(&p[i])` and the other cache-hinted loads read like `p[i]`: the
// value is as uniform as the address. A segment bound loaded at the block's
// own index is the same for every thread, so the early return before the
// barrier is taken by the whole block or by none of it.
// strict: WL007
__global__ void segment_scale(const int *offsets, const float *in, float *out) {
    __shared__ float tile[256];
    int seg = blockIdx.x;
    int begin = __ldg(&offsets[seg]);
    int end = __ldcg(&offsets[seg + 1]);
    if (end - begin <= 0) {
        return;
    }
    tile[threadIdx.x] = in[begin + threadIdx.x % (end - begin)];
    __syncthreads();
    out[begin + threadIdx.x % (end - begin)] = tile[255 - threadIdx.x];
}

// The look-alike: each thread loads its own limit, so threads leave at
// different times and the rest wait at the barrier for them.
__global__ void per_thread_limit(const int *limits, float *out) {
    __shared__ float tile[256];
    int limit = __ldg(&limits[threadIdx.x]);
    if (limit <= 0) {
        return;
    }
    tile[threadIdx.x] = (float)limit;
    __syncthreads(); // expect: WL007
    out[threadIdx.x] = tile[255 - threadIdx.x];
}
