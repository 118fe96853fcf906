// strict: WL002
// Look-alike of realcode_reduced/row_major_warp_index_clean.cu: the helper
// has the row-major shape, but its row length is the length of a data row
// (a runtime value), not the block's extent, so `index / 32` is no warp
// index: with 16-wide blocks and rows of 24, warp 0 holds indices 0-15 and
// 24-39.
__device__ __forceinline__ int RowIndex(int row_len, int rows) {
  return threadIdx.x + threadIdx.y * row_len;
}

__global__ void member_kernel(float *buf, int row_len, int rows) {
  int group = RowIndex(row_len, rows) / 32;
  if (group == 0) {
    buf[threadIdx.x] = 1.0f;
    __syncwarp(0xffffffff); // expect: WL002
  }
}

void launch_member_kernel(float *buf) {
  member_kernel<<<1, dim3(16, 8)>>>(buf, 24, 8);
}
