// Known false positive (pending): warps 0-3 hand a shared row to each other
// through a PTX named barrier. `bar.sync 1, 128` orders lane 0's write before
// the other lanes' reads, like __syncthreads() for these 128 threads.
__global__ __launch_bounds__(256) void scale_rows(float *rows, const float *alpha) {
  __shared__ float scale[4];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (warp < 4) {
    if (lane == 0) scale[warp] = alpha[blockIdx.x * 4 + warp];
    asm volatile("bar.sync 1, 128;" ::: "memory");
    rows[blockIdx.x * 128 + threadIdx.x] *= scale[(warp + 1) % 4];
  }
}
