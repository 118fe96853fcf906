#include <segsum.cuh>

__global__ void segments(const int *in, int *out) {
    out[threadIdx.x] = seg_sum(in[threadIdx.x]);
}
