// Formerly a known false positive (fixed; must stay clean): the second loop runs `i` from 0 to
// blockDim.x in every thread, so each thread meets the barrier blockDim.x
// times. Only the first loop, which reuses the name `i`, is lane-varying.
__global__ void serial_block_max(const float *data, float *out, int count) {
  __shared__ float best;
  float mine = 0.0f;
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < count; i += blockDim.x * gridDim.x) {
    mine = fmaxf(mine, data[i]);
  }
  for (int i = 0; i < blockDim.x; i++) {
    if (i == threadIdx.x) {
      best = (i == 0) ? mine : fmaxf(best, mine);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = best;
}
