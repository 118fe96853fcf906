// Formerly a known false positive (testdata/pending/README.md); fixed, so it must stay clean.
// A role branch whose loop ends with `break` still falls through to the
// block barrier: every thread reaches it.
__global__ __launch_bounds__(128) void roles_then_barrier(const int *flags, int *out, int n) {
  __shared__ int found[4];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (warp == 0) {
    for (int i = 0; i < n; i++) {
      if (flags[i] > 3) {
        if (lane == 0) found[0] = i;
        break;
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = found[0];
}
