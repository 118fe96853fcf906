// A small CuTe-like layout library: a thread's fragment of a tile and the
// shape queries over it. The fragment's data pointer depends on the thread;
// its extents never do.
#pragma once

namespace cute {

template <int Rows, int Cols>
struct Fragment {
  float* data;
  int rows = Rows;
  int cols = Cols;
  __device__ float& operator()(int r, int c) { return data[r * Cols + c]; }
};

template <int Rows, int Cols>
__device__ Fragment<Rows, Cols> thread_fragment(float* base) {
  // Each thread's fragment starts at its own offset.
  return Fragment<Rows, Cols>{base + threadIdx.x * Rows * Cols};
}

// The extent of mode I: computed from the fragment object, which the
// analysis sees as lane-varying (it holds a per-thread pointer).
template <int I, class F>
__device__ int size(F const& f) {
  return I == 0 ? f.rows : f.cols;
}

}  // namespace cute
