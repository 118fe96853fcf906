// strict: WL002
// Look-alike of realcode_reduced/row_major_warp_index_clean.cu: the helper
// is given the block's extents but computes a column-major index (x is the
// slow dimension), which is not the index warps are cut from, so
// `index / 32` differs between lanes of a warp.
__device__ __forceinline__ int ColumnIndex(int dim_x, int dim_y) {
  return threadIdx.y + threadIdx.x * dim_y;
}

__global__ void column_kernel(float *buf) {
  int group = ColumnIndex(blockDim.x, blockDim.y) / 32;
  if (group == 0) {
    buf[threadIdx.x] = 1.0f;
    __syncwarp(0xffffffff); // expect: WL002
  }
}

void launch_column_kernel(float *buf) {
  column_kernel<<<1, dim3(16, 8)>>>(buf);
}
