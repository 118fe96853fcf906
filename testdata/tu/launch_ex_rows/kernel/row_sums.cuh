// strict: WL002
// Kernels whose rows are `threadIdx.y`, launched from host/row_sums.cu
// through `cudaLaunchKernelEx` (no `<<<…>>>` anywhere). Only the launcher
// says how wide a row is: with 32 threads per row each warp is one row, so
// a guard on the row is the same across a warp and the full-mask shuffle
// under it is reached by all 32 lanes. With 48 threads per row the second
// warp holds the end of row 0 and the start of row 1, so a guard on the
// row splits it and half of that warp never reaches the shuffle.
#pragma once

template <int Rows>
__global__ void row_sums(const float *in, float *out, int live_rows) {
  int lane = threadIdx.x;
  int row = threadIdx.y;
  if (row < live_rows) {
    float v = in[row * 32 + lane];
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0) out[row] = v;
  }
}

__global__ void row_sums_wide(const float *in, float *out, int live_rows) {
  int lane = threadIdx.x;
  int row = threadIdx.y;
  if (row == 0) {
    float v = in[row * 48 + lane];
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffff, v, offset); // expect: WL002
    if (lane == 0) out[row] = v;
  }
}

// Slices of 16×2 threads: each slice (`threadIdx.z`) is one whole warp, so
// a guard on the slice leaves every warp converged.
__global__ void slice_sums(const float *in, float *out) {
  int slice = threadIdx.z;
  int lane = threadIdx.y * 16 + threadIdx.x;
  if (slice < 2) {
    float v = in[slice * 32 + lane];
    for (int offset = 16; offset > 0; offset /= 2)
      v += __shfl_down_sync(0xffffffff, v, offset);
    if (lane == 0) out[slice] = v;
  }
}
