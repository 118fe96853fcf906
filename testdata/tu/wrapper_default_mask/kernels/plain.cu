// No warp identifier of its own: the divergence reaches the header's
// primitive only through `lk_pair_sum`.
#include "../include/lanekit/exchange.cuh"

__global__ void halves(float *data, int limit) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < limit) {
        data[t] = lk_pair_sum(data[t]); // expect: WL002
    }
}
