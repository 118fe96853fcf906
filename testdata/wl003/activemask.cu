// __activemask() as "the lanes in this branch".
__device__ int sum_active(int v, unsigned mask) {
    return __reduce_add_sync(mask, v);
}

__global__ void branch_sum(const int *in, int *out, int n) {
    int i = threadIdx.x;
    if (i < n) {
        unsigned active = __activemask();
        int total = __reduce_add_sync(active, in[i]); // expect: WL003
        if (i == 0) out[0] = total;
    }
}

__global__ void top_level(const int *in, int *out) {
    // Even at the top of a kernel the warp need not be converged.
    int v = in[threadIdx.x];
    unsigned any_big = __ballot_sync(__activemask(), v > 500); // expect: WL003
    out[threadIdx.x] = __popc(any_big);
}

__global__ void through_helper(const int *in, int *out, int n) {
    int i = threadIdx.x;
    if (i < n) {
        int s = sum_active(in[i], __activemask()); // expect: WL003
        if (i == 0) out[0] = s;
    }
}

void launch(const int *a, int *b) {
    branch_sum<<<1, 32>>>(a, b, 20);
    top_level<<<1, 32>>>(a, b);
    through_helper<<<1, 32>>>(a, b, 20);
}
