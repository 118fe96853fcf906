// The host launcher of kernel/row_sum.cuh: the block always has one row.
#pragma once
#include "../kernel/row_sum.cuh"

template <typename Op>
__global__ void Launch(typename Op::Params params) {
  __shared__ float smem[256];
  Op op;
  op(params, smem);
}

struct RowSumLauncher {
  dim3 grid;
  dim3 block;

  RowSumLauncher() : grid(0, 0, 0), block(0, 0, 0) {}

  RowSumLauncher(long rows, int cols) {
    int threads_x = cols < 256 ? 128 : 256;
    int threads_y = 1;
    grid = dim3(1, rows < 1024 ? rows : 1024, 1);
    block = dim3(threads_x, threads_y, 1);
  }

  void run(const float *in, float *out, long rows, int cols) {
    using Op = kernel::RowSum<256>;
    typename Op::Params p{in, out, cols};
    Launch<Op><<<grid, block, 0>>>(p);
  }
};
