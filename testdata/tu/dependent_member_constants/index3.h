// An index type: its members name positions 0, 1 and 2, not extents.
#pragma once

struct Index3 {
  static int const kRow = 0;
  static int const kCol = 1;
  static int const kDepth = 2;
  int v[3];
  __host__ __device__ int row() const { return v[kRow]; }
};
