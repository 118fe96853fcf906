// Known false positive (pending): every lane spins on a flag in global
// memory until the producer advances it, then the warp meets at
// __syncwarp(). Lanes may leave the spin at different times, but all leave.
__global__ __launch_bounds__(32) void wait_for_slot(volatile long long *tail, long long head, float *out) {
  long long seen = tail[0];
  while (head >= seen + 4) {
    seen = tail[0];
  }
  __syncwarp();
  out[threadIdx.x] = (float)(head - seen);
}
