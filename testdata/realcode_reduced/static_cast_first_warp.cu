// strict: WL002
// A block-wide argmin written with `static_cast<int>(threadIdx.x)` instead
// of a C cast: `static_cast<int>(threadIdx.x) < 32` is still exactly the
// first warp of a block whose size is a multiple of 32, so its full-mask
// shuffles see every lane (clean), even when the helper runs inside a
// loop whose trip count is loaded from memory at a uniform address. The
// look-alike keeps only the first 16 threads, half of warp 0 (finding).

__device__ int block_argmin(int *scratch, int v, int n) {
  for (int o = 16; o > 0; o >>= 1) v = min(v, __shfl_xor_sync(0xffffffff, v, o));
  if (static_cast<int>(threadIdx.x) % 32 == 0) scratch[static_cast<int>(threadIdx.x) / 32] = v;
  __syncthreads();
  if (static_cast<int>(threadIdx.x) < 32) {
    v = static_cast<int>(threadIdx.x) * 32 < n ? scratch[threadIdx.x] : 1 << 30;
    for (int o = 16; o > 0; o >>= 1) v = min(v, __shfl_xor_sync(0xffffffff, v, o));
    if (static_cast<unsigned>(threadIdx.x) == 0u) scratch[0] = v;
  }
  __syncthreads();
  return scratch[0];
}

__device__ int block_argmin_half(int *scratch, int v, int n) {
  for (int o = 16; o > 0; o >>= 1) v = min(v, __shfl_xor_sync(0xffffffff, v, o));
  if (static_cast<int>(threadIdx.x) % 32 == 0) scratch[static_cast<int>(threadIdx.x) / 32] = v;
  __syncthreads();
  if (static_cast<int>(threadIdx.x) < 16) {
    v = scratch[threadIdx.x];
    for (int o = 8; o > 0; o >>= 1) v = min(v, __shfl_xor_sync(0xffffffff, v, o)); // expect: WL002
    if (static_cast<int>(threadIdx.x) == 0) scratch[0] = v;
  }
  __syncthreads();
  return scratch[0];
}

__global__ void schedule(const int *lens, int *out, int batches, int n) {
  __shared__ int scratch[32];
  int mine = threadIdx.x;
  for (int b = 0; b < batches; ++b) {
    const int len = lens[b];
    for (int t = len - 1; t >= 0; --t) {
      const int best = block_argmin(scratch, mine, n);
      if (best == static_cast<int>(threadIdx.x)) mine += len;
    }
  }
  out[threadIdx.x] = block_argmin_half(scratch, mine, n);
}

void schedule_launch(const int *lens, int *out, int batches, int n) {
  schedule<<<1, 256>>>(lens, out, batches, n);
}
