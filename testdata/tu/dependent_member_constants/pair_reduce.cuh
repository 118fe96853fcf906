// A reduction over the pairs of lanes of a warp tile whose extents come
// from the operator's tile type. `Tile::kRow` is the instantiation's row
// extent: the unit's `Index3::kRow` (an index, 0) is another class's
// member of the same name, and reading it would make every loop below
// run zero times.
// strict: WL006
#pragma once
#include "index3.h"

template <typename Op, bool kByRow>
class PairReduce {
 public:
  using Tile = typename Op::Tile;
  static int const kSpan = kByRow ? Tile::kRow : Tile::kCol;
  static int const kSteps = kSpan / 8;

  __device__ void reduce(float (&acc)[kSteps]) {
    for (int i = 0; i < kSteps; ++i) {
      // Lanes 16-31 call it too, outside the mask.
      acc[i] += __shfl_xor_sync(0x0000ffffu, acc[i], 1); // expect: WL006
    }
  }

  // Look-alike: the same reduction with the whole warp's mask.
  __device__ void reduce_whole_warp(float (&acc)[kSteps]) {
    for (int i = 0; i < kSteps; ++i) {
      acc[i] += __shfl_xor_sync(0xffffffffu, acc[i], 1);
    }
  }
};
