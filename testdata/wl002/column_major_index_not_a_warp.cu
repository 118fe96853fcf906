// strict: WL002
// Look-alike of realcode_reduced/row_major_warp_index_clean.cu: the helper
// computes a column-major index (x is the slow dimension), which is not the
// index warps are cut from, so `index / 32` differs between lanes of a warp.
template <int DimX, int DimY>
__device__ __forceinline__ int ColumnIndex(int dim_x, int dim_y) {
  return threadIdx.y + threadIdx.x * dim_y;
}

template <int DimX, int DimY>
__device__ void column_exchange(float *buf) {
  int group = ColumnIndex<DimX, DimY>(DimX, DimY) / 32;
  if (group == 0) {
    buf[threadIdx.x] = 1.0f;
    __syncwarp(0xffffffff); // expect: WL002
  }
}

__global__ void column_kernel(float *buf) {
  column_exchange<16, 8>(buf);
}

void launch_column_kernel(float *buf) {
  column_kernel<<<1, dim3(16, 8)>>>(buf);
}
