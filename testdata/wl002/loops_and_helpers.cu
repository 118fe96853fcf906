// Lane-dependent trip counts, helpers with default full masks, nested
// branches under an outer ballot, switch and ternaries.
__device__ float warp_reduce(float v, unsigned mask = 0xffffffff) {
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_xor_sync(mask, v, offset);
    return v;
}

__global__ void helper_from_branch(const float *in, float *out, int n) {
    int i = threadIdx.x;
    if (i < n) {
        float s = warp_reduce(in[i]); // expect: WL002
        if (i == 0) out[0] = s;
    }
}

// A partial-mask reduction must skip partners outside the mask.
__device__ float masked_reduce(float v, unsigned mask) {
    int lane = threadIdx.x & 31;
    for (int offset = 16; offset > 0; offset /= 2) {
        float other = __shfl_xor_sync(mask, v, offset);
        if (mask >> (lane ^ offset) & 1) v += other;
    }
    return v;
}

__global__ void helper_with_ballot(const float *in, float *out, int n) {
    int i = threadIdx.x;
    unsigned mask = __ballot_sync(0xffffffff, i < n);
    if (i < n) {
        float s = masked_reduce(in[i], mask);
        if (i == 0) out[0] = s;
    }
}

__global__ void lane_trip_count(int *data) {
    int lane = threadIdx.x & 31;
    int v = data[threadIdx.x];
    for (int k = 0; k < lane; ++k)
        v += __shfl_up_sync(0xffffffff, v, 1); // expect: WL002
    data[threadIdx.x] = v;
}

__global__ void nested_after_outer_ballot(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    unsigned outer = __ballot_sync(0xffffffff, lane < 24);
    if (lane < 24) {
        v += __shfl_sync(outer, v, 0);
        if (lane < 8) {
            v += __shfl_sync(outer, v, 1); // expect: WL002
        }
    }
    out[threadIdx.x] = v;
}

__global__ void by_switch(int *data) {
    int lane = threadIdx.x & 31;
    int v = data[threadIdx.x];
    switch (lane % 4) {
    case 0:
        v = __shfl_sync(0xffffffff, v, 1); // expect: WL002
        break;
    default:
        v += 1;
        break;
    }
    data[threadIdx.x] = v;
}

__global__ void by_ternary(int *data) {
    int lane = threadIdx.x & 31;
    int v = data[threadIdx.x];
    v = (lane < 8) ? __shfl_sync(0xffffffff, v, 0) : v; // expect: WL002
    data[threadIdx.x] = v;
}

void launch(const float *a, float *b, int *c, const int *d) {
    helper_from_branch<<<1, 32>>>(a, b, 20);
    helper_with_ballot<<<1, 32>>>(a, b, 20);
    lane_trip_count<<<1, 32>>>(c);
    nested_after_outer_ballot<<<1, 32>>>(d, c);
    by_switch<<<1, 32>>>(c);
    by_ternary<<<1, 32>>>(c);
}
