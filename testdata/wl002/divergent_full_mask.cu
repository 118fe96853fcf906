// Full masks inside lane-divergent code: the classic CUDA 9 porting bug.
#define FULL_MASK 0xffffffffu
constexpr unsigned kAllLanes = ~0u;

__global__ void tail_sum(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = in[i];
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(FULL_MASK, v, offset); // expect: WL002
        if ((threadIdx.x & 31) == 0) out[blockIdx.x] = v;
    }
}

__global__ void lower_half_only(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    if (lane < 16) {
        v = __shfl_sync(kAllLanes, v, 0); // expect: WL002
    }
    // The whole warp meets here; on Hopper the two call sites paired.
    v += __shfl_sync(kAllLanes, v, 31);
    out[threadIdx.x] = v;
}

__global__ void vote_in_branch(const int *flags, unsigned *out) {
    int lane = threadIdx.x % 32;
    if (flags[threadIdx.x] > 0 && lane != 3) {
        unsigned b = __ballot_sync(0xffffffff, flags[threadIdx.x] > 1); // expect: WL002
        if (lane == 0) out[threadIdx.x / 32] = b;
    }
}

void launch(const float *a, float *b, const int *c, int *d, unsigned *e) {
    tail_sum<<<1, 32>>>(a, b, 20);
    lower_half_only<<<1, 32>>>(c, d);
    vote_in_branch<<<1, 64>>>(c, e);
}
