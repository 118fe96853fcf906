// Macros defined inside a template's body name what they expand to there.

// `s_take` is one shared slot, written by thread 0 before the barrier and
// read by every thread after it: `limit` is the same in every thread, so
// the early return is taken by the whole block or by none of it. Clean.
template <int STEPS>
__device__ void take_quota(unsigned *hist, unsigned tx, unsigned k) {
#define s_take hist[4]
    if (tx == 0)
        s_take = k;
    __syncthreads();
    unsigned limit = s_take;
    if (limit == 0)
        return;
    hist[5 + tx] = limit;
    __syncthreads();
#undef s_take
}

// `MY_LANE` is the lane index: a full-mask shuffle under it is reached by
// half of the warp.
template <int WIDTH>
__device__ float low_half_sum(float v) {
#define MY_LANE (threadIdx.x & 31)
    if (MY_LANE < WIDTH)
        v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
#undef MY_LANE
    return v;
}

__global__ void quota_kernel(unsigned k, float *out) {
    extern __shared__ unsigned smem[];
    take_quota<4>(smem, threadIdx.x, k);
    out[threadIdx.x] = low_half_sum<16>(out[threadIdx.x]);
}
