// Fixed 2026-11-26 (was testdata/pending): warps past the group count
// return before the barrier. Exited threads do
// not take part in __syncthreads(), so the warps that stay may use it.
__global__ __launch_bounds__(128) void groups_then_barrier(const float *in, float *out, int groups) {
  __shared__ float partial[4];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= groups) {
    return;
  }
  float v = in[blockIdx.x * 128 + threadIdx.x];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

// The same exit written on the thread index: `tid >= 32 * groups` cuts at a
// warp boundary whatever `groups` is, and the bound is a static member.
struct GroupTraits {
  static constexpr int kGroups = 3;
};

template <typename Traits>
__global__ __launch_bounds__(128) void groups_by_thread_bound(const float *in, float *out) {
  __shared__ float partial[4];
  const unsigned tid = threadIdx.x;
  if (tid >= 32 * Traits::kGroups) return;
  float v = in[blockIdx.x * 128 + tid];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  if (tid % 32 == 0) partial[tid / 32] = v;
  __syncthreads();
  if (tid == 0) out[blockIdx.x] = partial[0] + partial[1] + partial[2];
}

template __global__ void groups_by_thread_bound<GroupTraits>(const float *, float *);

// The warp index broadcast from lane 0 is the same for the whole warp.
__global__ __launch_bounds__(128) void broadcast_warp_exit(const float *in, float *out, int groups) {
  __shared__ float partial[4];
  int warp = __shfl_sync(0xffffffffu, threadIdx.x / 32, 0);
  if (warp >= groups) return;
  partial[warp] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}
