// A kernel class, as CUTLASS writes one: `operator()` is the whole block's
// work, launched by a generic wrapper from another header
// (device/row_total.cuh). Its rows are `threadIdx.y`, so the loop bound is
// the same for the block only where every launch gives the block one row:
// its launcher builds `dim3(threads, 4, 1)`, so the rows of a block
// leave the loop at different times and miss the others' barriers (the
// first one, in `reduce_row`, is where a run shows it).
#pragma once

namespace kernel {

template <int Threads>
struct RowTotal {
  static constexpr long kRows = 2;
  struct Params {
    const float *in;
    float *out;
    int cols;
  };

  __device__ float reduce_row(const Params &p, float *smem, long row) {
    smem[threadIdx.x] = threadIdx.x < p.cols ? p.in[row * p.cols + threadIdx.x] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
      if (threadIdx.x < s) smem[threadIdx.x] += smem[threadIdx.x + s];
      __syncthreads();
    }
    return smem[0];
  }

  __device__ void operator()(const Params &p, float *smem) {
    long row = blockIdx.y * blockDim.y + threadIdx.y;
    while (row < kRows) {
      float total = reduce_row(p, smem, row); // expect: WL007
      if (threadIdx.x == 0) p.out[row] = total;
      __syncthreads();
      row += gridDim.y * blockDim.y;
    }
  }
};

}  // namespace kernel
