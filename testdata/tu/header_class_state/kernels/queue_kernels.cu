// The kernels that build comm/queue.cuh's queues: one queue per warp,
// its slot at `slots + 2 * warp`.
#include "../comm/queue.cuh"

constexpr int kThreads = 128;

__global__ void drain(int *slots, const float *in, float *out, int count) {
  int warp = blockIdx.x * (kThreads / 32) + threadIdx.x / 32;
  int *mine = slots + 2 * warp;
  WarpQueue queue(mine, in, out);
  queue.run(warp * count, count);
}

__global__ void drain_skewed(int *slots, const float *in, float *out, int count) {
  int warp = blockIdx.x * (kThreads / 32) + threadIdx.x / 32;
  int *mine = slots + 2 * warp;
  SkewedQueue queue(mine, in, out);
  queue.run(warp * count, count);
}

void drain_all(int *slots, const float *in, float *out, int warps, int count,
               cudaStream_t stream) {
  drain<<<warps / 4, kThreads, 0, stream>>>(slots, in, out, count);
  drain_skewed<<<warps / 4, kThreads, 0, stream>>>(slots, in, out, count);
}
