// strict: WL002, WL007
// Look-alikes of realcode_reduced/whole_warps_return_before_barrier.cu where
// the threads that return are not whole warps: the barrier is reached by
// only some lanes of a warp.
__global__ __launch_bounds__(128) void lanes_return_then_barrier(const float *in, float *out, int groups) {
  __shared__ float partial[128];
  const int lane = threadIdx.x % 32;
  if (lane >= groups) {
    return;
  }
  partial[threadIdx.x] = in[threadIdx.x];
  __syncthreads(); // expect: WL007
  out[threadIdx.x] = partial[127 - threadIdx.x];
}

// `tid > 32 * w` keeps lane 32·w of warp w: the cut falls inside a warp.
__global__ __launch_bounds__(128) void bound_inside_warp(const float *in, float *out, int w) {
  __shared__ float partial[128];
  if (threadIdx.x > 32 * w) return;
  partial[threadIdx.x] = in[threadIdx.x];
  __syncthreads(); // expect: WL007
  out[threadIdx.x] = partial[0];
}

// A warp-uniform return nested in a lane-varying branch: only some lanes
// of the warp leave.
__global__ __launch_bounds__(128) void warp_exit_under_lane_branch(const float *in, float *out, int groups) {
  __shared__ float partial[128];
  int warp = threadIdx.x / 32;
  if (threadIdx.x % 2 == 0) {
    if (warp >= groups) return;
  }
  partial[threadIdx.x] = in[threadIdx.x];
  __syncthreads(); // expect: WL007
  out[threadIdx.x] = partial[0];
}

void launch_bound_inside_warp(const float *in, float *out) {
  bound_inside_warp<<<1, 128>>>(in, out, 1);
}
