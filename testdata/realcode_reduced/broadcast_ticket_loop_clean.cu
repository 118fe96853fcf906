// A ticket read by lane 0 and broadcast with a full-mask shuffle is the same
// in every lane: the loop that stops on it is uniform across the warp.
__global__ __launch_bounds__(128) void claim_loop(unsigned *counter, float *out, unsigned total, unsigned max_items) {
  const unsigned lane = threadIdx.x % 32;
  float acc = 0.0f;
  for (unsigned claim = 0; claim < max_items + 1; claim++) {
    unsigned mine = 0;
    if (lane == 0) mine = atomicAdd(counter, 1u);
    unsigned ticket = __shfl_sync(0xffffffffu, mine, 0);
    if (ticket >= total) break;
    acc += __shfl_xor_sync(0xffffffffu, (float)ticket, 1);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
