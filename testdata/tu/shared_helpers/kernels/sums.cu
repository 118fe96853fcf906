// The kernels of the library: block sums that finish in one warp.
#include <redkit/warp_tail.cuh>

__global__ void block_sum(const float *in, float *out) {
    __shared__ float s[64];
    int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * 64 + tid];
    __syncthreads();
    if (tid < 32)
        warp_tail(s, tid);
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

__global__ void block_sum_synced(const float *in, float *out) {
    __shared__ float s[64];
    int tid = threadIdx.x;
    s[tid] = in[blockIdx.x * 64 + tid];
    __syncthreads();
    if (tid < 32)
        warp_tail_synced(s, tid);
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

__global__ void neighbour_counts(int *counts) {
    __shared__ int slots[32];
    WarpSlots w(slots);
    counts[threadIdx.x] = w.shift_add(counts[threadIdx.x]);
}

void launch(const float *in, float *out, int *counts) {
    block_sum<<<8, 64>>>(in, out);
    block_sum_synced<<<8, 64>>>(in, out);
    neighbour_counts<<<1, 32>>>(counts);
}
