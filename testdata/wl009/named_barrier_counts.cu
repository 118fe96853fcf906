// Named barriers complete when as many threads as their count have
// arrived, each arriving warp counting its 32 threads. A count the
// arrivals never make up leaves the waiting warps hanging (an H200 hung on
// two warps at `bar.sync 1, 128`); a count computed at run time that is
// not a multiple of 32 is an illegal instruction.
// strict: WL009

__device__ __forceinline__ void wait_at(unsigned id, unsigned threads) {
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

__device__ __forceinline__ void arrive_at(unsigned id, unsigned threads) {
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// The consumers count the producer's threads too, but the producer warps
// never arrive.
__global__ void consumers_wait_for_producers(const float *in, float *out) {
    __shared__ float tile[64];
    int t = threadIdx.x;
    if (t < 64) {
        tile[t] = in[blockIdx.x * 64 + t] * 0.5f;
    } else {
        asm volatile("bar.sync 2, 128;" ::: "memory"); // expect: WL009
        out[blockIdx.x * 64 + t - 64] = tile[t - 64];
    }
}

// The count is the whole block's, but only the first two warps stage.
__global__ void count_of_the_block(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t < 64) {
        s[t] = in[t];
        wait_at(1, 256); // expect: WL009
        out[t] = s[63 - t];
    }
}

// A per-group thread count computed from the warps per group: 48 is no
// multiple of 32.
__global__ void computed_group_count(int *out, int threads_per_group) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t;
    asm volatile("bar.sync 3, %0;" ::"r"(threads_per_group) : "memory"); // expect: WL009
    out[t] = s[t ^ 32];
}

// The count is two warps' but three wait there: the first two complete a
// phase, and the third waits for a partner that never comes.
__global__ void three_warps_count_two(const int *in, int *out) {
    __shared__ int s[96];
    int t = threadIdx.x;
    s[t] = in[t] + 1;
    wait_at(6, 64); // expect: WL009
    out[t] = s[95 - t];
}

// Look-alike: the producer warps arrive, the consumer warps wait; both
// sides count all four warps.
__global__ void producers_arrive(const float *in, float *out) {
    __shared__ float tile[64];
    int t = threadIdx.x;
    if (t < 64) {
        tile[t] = in[blockIdx.x * 64 + t] * 0.5f;
        arrive_at(2, 128);
    } else {
        wait_at(2, 128);
        out[blockIdx.x * 64 + t - 64] = tile[t - 64];
    }
}

// Look-alike: two barrier ids, each counted for the warps that use it.
__global__ void two_groups(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    if (t < 64) {
        wait_at(4, 64);
    } else {
        wait_at(5, 64);
    }
    out[t] = s[t ^ 32];
}

// Look-alike: the count is the three warps'.
__global__ void three_warps_counted(const int *in, int *out) {
    __shared__ int s[96];
    int t = threadIdx.x;
    s[t] = in[t] + 1;
    wait_at(6, 96);
    out[t] = s[95 - t];
}

void launch_all(const float *f, float *g, const int *in, int *out) {
    consumers_wait_for_producers<<<8, 128>>>(f, g);
    count_of_the_block<<<1, 256>>>(in, out);
    computed_group_count<<<1, 64>>>(out, 48);
    producers_arrive<<<1, 128>>>(f, g);
    two_groups<<<1, 128>>>(in, out);
    three_warps_count_two<<<1, 96>>>(in, out);
    three_warps_counted<<<1, 96>>>(in, out);
}
