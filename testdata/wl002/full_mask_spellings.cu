// strict: WL002, WL006
// The full mask as libraries spell it: a functional cast of -1
// (`uint32_t(-1)`, `int32_t(-1)`) and the `<cstdint>` limit `UINT32_MAX`,
// whose header a check rarely sees. `uint32_t(-1)` was read as a call to
// an unknown function named `uint32_t`: its value unknown, so a guarded
// shuffle was "named the lanes in `uint32_t(-1)`" and, worse, a converged
// one got a WL006 "lanes outside the mask". `UINT32_MAX` was an unknown
// name, and the guarded shuffle was not reported at all.
//
// `row_max` reduces with every lane present (clean); `row_max_guarded`
// reduces only in even lanes while the mask names all 32 (findings).

__device__ float row_max(float v) {
  for (int d = 16; d > 0; d /= 2) {
    v = fmaxf(v, __shfl_xor_sync(uint32_t(-1), v, d));
  }
  for (int d = 16; d > 0; d /= 2) {
    v = fmaxf(v, __shfl_xor_sync(int32_t(-1), v, d));
  }
  for (int d = 16; d > 0; d /= 2) {
    v = fmaxf(v, __shfl_xor_sync(UINT32_MAX, v, d));
  }
  return v;
}

__device__ float row_max_guarded(float v) {
  if (threadIdx.x % 2 == 0) {
    v = fmaxf(v, __shfl_xor_sync(uint32_t(-1), v, 1)); // expect: WL002
    v = fmaxf(v, __shfl_xor_sync(int32_t(-1), v, 2));  // expect: WL002
    v = fmaxf(v, __shfl_xor_sync(UINT32_MAX, v, 4));   // expect: WL002
  }
  return v;
}

__global__ void reduce_rows(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = row_max(v) + row_max_guarded(v);
}
