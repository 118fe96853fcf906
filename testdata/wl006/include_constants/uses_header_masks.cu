// Constants from a header included with quotes are resolved.
#include "lane_masks.cuh"

__global__ void read_leader(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    if (lane < 16) {
        // kLeader (17) is not in the lower half.
        out[threadIdx.x] = __shfl_sync(LOWER_HALF_LANES, v, kLeader); // expect: WL006
    }
}

void launch(const int *a, int *b) {
    read_leader<<<1, 32>>>(a, b);
}
