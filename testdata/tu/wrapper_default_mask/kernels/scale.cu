// Calls the header's wrappers; the default mask names all 32 lanes.
#include <lanekit/exchange.cuh>

__global__ void scale_tail(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (i < n) {
        v = lk_xor(v, 2); // expect: WL002
    }
    out[i] = v;
}

// The same wrapper with every lane present: clean.
__global__ void scale_all(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = lk_pair_sum(in[i]);
}

// The caller computes the mask before the branch and passes it: clean.
__global__ void count_voted(const float *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned voters = __ballot_sync(0xffffffffu, i < n);
    if (i < n) {
        out[i] = lk_count(in[i] > 0.0f, voters);
    }
}
