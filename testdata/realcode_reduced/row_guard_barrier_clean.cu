// Look-alike of row_guard_barrier.cu that is correct: every thread of the
// block runs the tile loop and meets the barrier; only the loads and the
// store are guarded by the row bound.
__global__ void row_dot_guarded(const float *a, const float *x, float *y, int rows, int cols) {
  __shared__ float xs[256];
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  float acc = 0.0f;
  for (int k0 = 0; k0 < cols; k0 += 32) {
    xs[threadIdx.y * blockDim.x + threadIdx.x] = x[k0 + threadIdx.x];
    __syncthreads();
    if (row < rows) acc += a[row * cols + k0 + threadIdx.x] * xs[threadIdx.y * blockDim.x + threadIdx.x];
    __syncthreads();
  }
  if (row < rows) y[row] = acc;
}

void launch_row_dot_guarded(const float *a, const float *x, float *y, int rows, int cols) {
  dim3 block(32, 8);
  row_dot_guarded<<<(rows + 7) / 8, block>>>(a, x, y, rows, cols);
}
