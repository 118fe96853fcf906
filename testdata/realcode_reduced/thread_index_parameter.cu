// strict: WL002
// Helpers that take the thread index as a parameter, as kernels split into
// stages write them: `load_row(…, lane)`, `scan(…, tid)`. When every call
// passes `threadIdx.x` (or a local holding it, plus whole warps), the
// parameter is a thread index in the helper too, so `tid / 32 == 1` is a
// whole warp and its full-mask shuffle sees every lane (clean). The
// look-alikes pass `threadIdx.x + 1`, or shift the parameter in the
// helper: warp boundaries fall inside the test (findings).

__device__ float second_warp_sum(float v, int tid) {
  if (tid / 32 == 1) {
    for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffff, v, d);
  }
  return v;
}

__device__ float second_warp_sum_shifted(float v, int tid) {
  if (tid / 32 == 1) {
    for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffff, v, d); // expect: WL002
  }
  return v;
}

__device__ float second_warp_sum_written(float v, int tid) {
  tid += 16;
  if (tid / 32 == 1) {
    for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffff, v, d); // expect: WL002
  }
  return v;
}

__global__ void stages(float *data) {
  const int tid = threadIdx.x;
  const int slot = blockIdx.x * blockDim.x + tid;
  float v = data[slot];
  v = second_warp_sum(v, tid);
  v = second_warp_sum(v, threadIdx.x + 64);
  v = second_warp_sum_shifted(v, threadIdx.x + 1);
  v = second_warp_sum_written(v, tid);
  data[slot] = v;
}
