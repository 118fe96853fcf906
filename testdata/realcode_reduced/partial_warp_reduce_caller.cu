// A reduction helper for a warp of which only the first `live` lanes
// exist: it shuffles with the mask of those lanes and drops what comes from
// a partner past them. Its only caller, a block reduction that no kernel of
// this file calls, runs it for the block's last warp when the block size is
// not a multiple of 32, so `live` is exactly the lanes that exist (clean:
// the helper is judged through its caller, not on a full warp with a
// chosen `live`). The look-alike caller runs it on every warp with the
// caller's own `live`: lanes past it call with a mask that leaves them out.

__device__ float partial_sum(float v, int live) {
  const int lane = threadIdx.x & 31;
  const unsigned mask = live == 32 ? 0xffffffffu : (1u << live) - 1;
  for (int d = 16; d > 0; d >>= 1) {
    const float other = __shfl_xor_sync(mask, v, d);
    if ((lane ^ d) < live) v += other;
  }
  return v;
}

__device__ float block_sum_tail(float v, float *scratch) {
  const int warp = threadIdx.x / 32;
  const int warps = (blockDim.x + 31) / 32;
  const int tail = blockDim.x % 32;
  if (tail != 0 && warp == warps - 1) {
    v = partial_sum(v, tail);
  } else {
    for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffffu, v, d);
  }
  if ((threadIdx.x & 31) == 0) scratch[warp] = v;
  return v;
}

__device__ float partial_sum_any(float v, int live) {
  const int lane = threadIdx.x & 31;
  const unsigned mask = live == 32 ? 0xffffffffu : (1u << live) - 1;
  for (int d = 16; d > 0; d >>= 1) {
    const float other = __shfl_xor_sync(mask, v, d); // expect: WL006
    if ((lane ^ d) < live) v += other;
  }
  return v;
}

__global__ void sum_rows(const float *in, float *out, int live) {
  out[threadIdx.x] = partial_sum_any(in[threadIdx.x], live);
}
