// Real bug pattern (from a blockscaled GEMV): rows are spread over
// threadIdx.y and the grid rounds the row count up, so in the last block the
// rows past `rows` skip the barrier that the others wait at.
__global__ void row_dot(const float *a, const float *x, float *y, int rows, int cols) {
  __shared__ float xs[256];
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row < rows) {
    float acc = 0.0f;
    for (int k0 = 0; k0 < cols; k0 += 32) {
      xs[threadIdx.y * blockDim.x + threadIdx.x] = x[k0 + threadIdx.x];
      __syncthreads(); // expect: WL007
      acc += a[row * cols + k0 + threadIdx.x] * xs[threadIdx.y * blockDim.x + threadIdx.x];
    }
    y[row] = acc;
  }
}

void launch_row_dot(const float *a, const float *x, float *y, int rows, int cols) {
  dim3 block(32, 8);
  row_dot<<<(rows + 7) / 8, block>>>(a, x, y, rows, cols);
}
