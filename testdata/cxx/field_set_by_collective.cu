// A field whose default initializer runs a warp collective (here, electing
// lane 0 of each warp) was set when the object was built, by every lane
// together. The members read the field; they do not run the collective
// again, so a member with no warp primitive of its own may be called by
// some lanes only.
__device__ bool is_warp_leader() {
    unsigned first = __shfl_sync(0xffffffffu, threadIdx.x, 0);
    return threadIdx.x == first;
}

struct Histogram {
    unsigned *bins;
    bool leader = is_warp_leader();

    // No warp primitive here: calling it from a lane-dependent loop is fine.
    __device__ void add(unsigned slot) { atomicAdd(&bins[slot], 1u); }

    // A full-mask shuffle of its own: every lane of the warp must call it.
    __device__ unsigned warp_total(unsigned v) {
        for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
        return v;
    }

    __device__ void count(const unsigned *keys, int n) {
        for (int i = threadIdx.x; i < n; i += blockDim.x) add(keys[i] & 255u);
    }

    __device__ void count_and_sum(const unsigned *keys, unsigned *out, int n) {
        for (int i = threadIdx.x; i < n; i += blockDim.x) {
            unsigned total = warp_total(keys[i]); // expect: WL002
            if (leader) out[i / 32] = total;
        }
    }
};

__global__ void histogram(unsigned *bins, const unsigned *keys, unsigned *out, int n) {
    Histogram h{bins};
    h.count(keys, n);
    h.count_and_sum(keys, out, n);
}
