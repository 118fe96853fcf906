// Early returns: exited lanes need not arrive at __syncwarp or a vote, but
// a shuffle must not read them.
__global__ void reduce_after_return(const int *in, int *out, int n) {
    int i = threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset); // expect: WL002
    if (i == 0) out[0] = v;
}

__global__ void sync_after_return(int *data, int n) {
    int i = threadIdx.x;
    if (i >= n) return;
    data[i] = i;
    __syncwarp();                                   // legal: exited lanes
    unsigned all = __ballot_sync(0xffffffff, data[i] > 0); // legal too
    if (i == 0) data[n] = (int)all;
}

// A helper that returns early keeps those lanes alive in the caller.
__device__ int helper_with_return(int v, int lane, int limit) {
    if (lane >= limit) return v;
    return v + __shfl_down_sync(0xffffffff, v, 1); // expect: WL002
}

__global__ void uses_helper(int *data) {
    int lane = threadIdx.x & 31;
    data[threadIdx.x] = helper_with_return(data[threadIdx.x], lane, 20);
}

void launch(const int *a, int *b) {
    reduce_after_return<<<1, 32>>>(a, b, 20);
    sync_after_return<<<1, 32>>>(b, 20);
    uses_helper<<<1, 32>>>(b);
}
