// Kernels that call the library's warp sum: where only some lanes of a
// warp call it, its full mask names lanes that never arrive.
#include <shufkit/sum.cuh>

// Only the lanes whose value passes the threshold (a float: any split is
// possible) sum.
__global__ void sum_above(const float *in, float *out, float threshold) {
    float v = in[threadIdx.x];
    if (v > threshold) {
        v = shufkit_sum(v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// The look-alike: every lane sums, and the threshold picks what is kept.
__global__ void sum_all(const float *in, float *out, float threshold) {
    float v = in[threadIdx.x];
    float total = shufkit_sum(v);
    out[threadIdx.x] = v > threshold ? total : v;
}
