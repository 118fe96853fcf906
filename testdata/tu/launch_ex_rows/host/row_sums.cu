// The launcher of kernel/row_sums.cuh: the block shapes are stated only
// in the launch configs.
#include "../kernel/row_sums.cuh"

void sum_rows(const float *in, float *out, int rows, cudaStream_t stream) {
  cudaLaunchConfig_t cfg = {0};
  cfg.gridDim = dim3(1);
  cfg.blockDim = dim3(warpSize, 4);
  cfg.dynamicSmemBytes = 0;
  cfg.stream = stream;
  auto kernel = row_sums<4>;
  cudaLaunchKernelEx(&cfg, kernel, in, out, rows);
}

void sum_wide_rows(const float *in, float *out, int rows, cudaStream_t stream) {
  cudaLaunchConfig_t wide;
  wide.gridDim = dim3(1);
  wide.blockDim = dim3(48, 2);
  wide.stream = stream;
  cudaLaunchKernelEx(&wide, &row_sums_wide, in, out, rows);
}

void sum_slices(const float *in, float *out, cudaStream_t stream) {
  cudaLaunchConfig_t cfg = {};
  cfg.blockDim.x = 16;
  cfg.blockDim.y = 2;
  cfg.blockDim.z = 3;
  cfg.stream = stream;
  cudaLaunchKernelEx(&cfg, slice_sums, in, out);
}
