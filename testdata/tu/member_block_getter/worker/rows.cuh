// strict: WL002
// A kernel builds a per-row worker object and calls its member: the member
// runs in the kernel's threads, so it has the kernel's block. The launcher
// below asks the worker class for that block through a static getter built
// from constants of this header (host/launch.cu calls it): 64 threads across (two warps) and 4 rows. Each warp lies
// inside one row, so `row = threadIdx.y` is warp-uniform in the member: the
// last row, which skips the reduction, is whole warps, and the full-mask
// shuffles of the other rows see every lane (clean).
//
// The look-alike class is built by a kernel launched with 16 threads
// across: a warp then spans two rows, so the row that skips leaves the
// other half of its warp shuffling with lanes that never arrive (finding).

#pragma once

constexpr int kLanes = 32;

struct RowWorker {
  static constexpr int kRows = 4;
  static constexpr int kWarpsPerRow = 2;
  static constexpr int kLastRow = kRows - 1;
  static dim3 block_shape() { return dim3(kLanes * kWarpsPerRow, kRows); }

  int row;
  float *data;
  __device__ RowWorker(float *d) : row(threadIdx.y), data(d) {}

  __device__ void run() {
    float v = data[row * 64 + threadIdx.x];
    if (row != kLastRow) {
      for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffff, v, d);
    }
    data[row * 64 + threadIdx.x] = v;
  }
};

__global__ void rows_kernel(float *data, int rows) {
  RowWorker worker(data);
  worker.run();
}

struct NarrowRowWorker {
  static constexpr int kLastRow = 1;
  int row;
  float *data;
  __device__ NarrowRowWorker(float *d) : row(threadIdx.y), data(d) {}

  __device__ void run() {
    float v = data[row * 16 + threadIdx.x];
    if (row != kLastRow) {
      for (int d = 8; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffff, v, d); // expect: WL002
    }
    data[row * 16 + threadIdx.x] = v;
  }
};

__global__ void narrow_rows_kernel(float *data, int rows) {
  NarrowRowWorker worker(data);
  worker.run();
}

void launch_rows(float *data, int rows, cudaStream_t stream) {
  dim3 block = RowWorker::block_shape();
  rows_kernel<<<1, block, 0, stream>>>(data, rows);
  narrow_rows_kernel<<<1, dim3(16, 8), 0, stream>>>(data, rows);
}
