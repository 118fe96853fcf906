// strict: WL002
// Generated Blackwell kernels state their thread-block cluster with
// `__cluster_dims__(…)` after `__launch_bounds__`. The grammar does not
// know that attribute, so `__global__` lands in a parse-error node before
// the definition; the function is still a kernel, and a branch on its own
// parameters (or on loads at a uniform address) is uniform (clean). The
// look-alike branches on the lane: a finding.

extern "C" {

__global__ __launch_bounds__(256, 1) __cluster_dims__(2, 1, 1) void
cluster_param_guard(const int *starts, float *out, int rows, int n) {
  int first = starts[blockIdx.x];
  int last = starts[blockIdx.x + 1];
  for (int item = first; item < last; item += 2) {
    float v = out[item * 32 + threadIdx.x % 32];
    if (rows == n) {
      v += __shfl_xor_sync(0xffffffff, v, 1);
    }
    out[item * 32 + threadIdx.x % 32] = v;
  }
}

__global__ __launch_bounds__(256, 1) __cluster_dims__(2, 1, 1) void
cluster_lane_guard(float *out, int n) {
  float v = out[threadIdx.x];
  if (threadIdx.x % 32 < n) {
    v += __shfl_xor_sync(0xffffffff, v, 1); // expect: WL002
  }
  out[threadIdx.x] = v;
}

}
