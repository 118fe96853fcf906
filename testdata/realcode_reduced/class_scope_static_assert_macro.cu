// A library's spelling of `static_assert` used at class scope, as template
// libraries write it: `LIB_STATIC_ASSERT(cond, "why");` among a class's
// members. With the macro's definition in a header the check does not see,
// the grammar took the call for a member declaration with an expression
// inside its parameter list, and the whole class (members and all) became
// one parse error: the members were never analysed.
//
// `RowCompressor::compress` has one lane per row do the work and then
// waits at a barrier every thread reaches (clean). `SkewedCompressor` is
// the same class with the barrier moved inside the row guard: threads past
// the last row skip it while the others wait (finding).

template <int Rows, int Cols>
struct RowCompressor {
  LIB_STATIC_ASSERT(Rows % 32 == 0, "whole warps of rows");
  LIB_STATIC_ASSERT(Cols > 0, "at least one column");

  __device__ static void compress(const float *in, float *out, int rows) {
    __shared__ float tile[Rows];
    int row = threadIdx.x;
    if (row < rows) {
      float s = 0.f;
      for (int c = 0; c < Cols; ++c) {
        s += in[row * Cols + c];
      }
      tile[row] = s;
    }
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x + 1) % Rows];
  }
};

template <int Rows, int Cols>
struct SkewedCompressor {
  LIB_STATIC_ASSERT(Rows % 32 == 0, "whole warps of rows");

  __device__ static void compress(const float *in, float *out, int rows) {
    __shared__ float tile[Rows];
    int row = threadIdx.x;
    if (row < rows) {
      tile[row] = in[row * Cols];
      __syncthreads(); // expect: WL007
    }
    out[threadIdx.x] = tile[(threadIdx.x + 1) % Rows];
  }
};

__global__ void compress_rows(const float *in, float *out, int rows) {
  RowCompressor<128, 4>::compress(in, out, rows);
}

__global__ void compress_rows_skewed(const float *in, float *out, int rows) {
  SkewedCompressor<128, 4>::compress(in, out, rows);
}
