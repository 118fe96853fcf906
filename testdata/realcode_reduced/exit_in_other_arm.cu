// strict: WL007
// A kernel with two code paths chosen by a flag every thread shares: the
// warp path lets threads without a token leave at once; the block path
// stages the token's coefficients through shared memory behind a barrier
// and lets them leave only after it. Lanes that leave in the warp path are
// never in the block path, so its barrier is reached by the whole block
// (clean). The look-alike puts the barrier after the `if`, where threads
// that left in the warp path are missing (finding).

template <int kTokensPerBlock>
__global__ void mix_tokens(float *out, const float *coeff, long tokens, int warp_path) {
  __shared__ float staged[kTokensPerBlock];
  const int slot = threadIdx.x / (256 / kTokensPerBlock);
  const bool valid = blockIdx.x * (long)kTokensPerBlock + slot < tokens;
  float c;
  if (warp_path) {
    if (!valid) return;
    c = coeff[blockIdx.x * kTokensPerBlock + slot];
  } else {
    if (threadIdx.x % (256 / kTokensPerBlock) == 0 && valid) {
      staged[slot] = coeff[blockIdx.x * kTokensPerBlock + slot];
    }
    __syncthreads();
    if (!valid) return;
    c = staged[slot];
  }
  out[blockIdx.x * 256 + threadIdx.x] = c;
}

template <int kTokensPerBlock>
__global__ void mix_tokens_late(float *out, const float *coeff, long tokens, int warp_path) {
  __shared__ float staged[kTokensPerBlock];
  const int slot = threadIdx.x / (256 / kTokensPerBlock);
  const bool valid = blockIdx.x * (long)kTokensPerBlock + slot < tokens;
  if (warp_path) {
    if (!valid) return;
  } else if (threadIdx.x % (256 / kTokensPerBlock) == 0 && valid) {
    staged[slot] = coeff[blockIdx.x * kTokensPerBlock + slot];
  }
  __syncthreads(); // expect: WL007
  out[blockIdx.x * 256 + threadIdx.x] = staged[slot];
}
