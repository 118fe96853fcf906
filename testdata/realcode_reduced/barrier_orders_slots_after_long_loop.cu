// Formerly a known false positive (fixed; must stay clean): each thread writes its own slot, the
// block meets at __syncthreads(), then thread 0 reads every slot. The
// barrier orders all of it; a long loop before it must not turn the pair
// into an unverified race.
__global__ __launch_bounds__(128) void partial_sums(const float *data, float *out, long count) {
  __shared__ float slots[128];
  float acc = 0.0f;
  for (long i = threadIdx.x + (long)blockIdx.x * blockDim.x; i < count; i += (long)blockDim.x * gridDim.x) {
    acc += data[i];
  }
  slots[threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (int k = 0; k < 128; ++k) total += slots[k];
    out[blockIdx.x] = total;
  }
}
