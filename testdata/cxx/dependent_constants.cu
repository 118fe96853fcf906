// Constants of a template's type argument (`Tile::kRows`), read in loop
// and branch conditions directly or through the class's own `enum`, are
// compile-time values: one value for every thread of the grid. A run picks
// them as it picks the template's own values, so the code inside the loops
// runs with the whole warp, and the witness names the values it chose.
// strict: WL002, WL006

template <typename Traits, typename Tile>
struct RowSoftmax {
  enum { kRows = Tile::kRows };
  enum { kCols = Tile::kCols };

  float vals_[kRows * 2][kCols * 4];

  // The first nest sums within the thread; the second reduces across
  // pairs of lanes with a narrowed mask that leaves lanes 16-31 out.
  __device__ void reduce_pairs(float (&dst)[kRows * 2]) {
    for (int r = 0; r < kRows * 2; ++r) {
      dst[r] = vals_[r][0];
      for (int c = 1; c < kCols * 4; ++c) {
        dst[r] += vals_[r][c];
      }
    }
    for (int r = 0; r < kRows * 2; ++r) {
      dst[r] += __shfl_xor_sync(0x0000ffffu, dst[r], 1); // expect: WL006
    }
  }

  // Look-alike: the same reduction over the whole warp.
  __device__ void reduce_pairs_whole_warp(float (&dst)[kRows * 2]) {
    for (int r = 0; r < kRows * 2; ++r) {
      dst[r] += __shfl_xor_sync(0xffffffffu, dst[r], 1);
    }
  }

  // Read directly, qualified; a flag of the traits chooses the width.
  __device__ float quad_max(float v) {
    for (int s = 0; s < Tile::kSteps; ++s) {
      if (Traits::kWideQuads) {
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 2));
      } else {
        v = fmaxf(v, __shfl_xor_sync(0x0000ffffu, v, 1)); // expect: WL006
      }
    }
    return v;
  }
};
