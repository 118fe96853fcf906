// A constant of a template's type argument is the instantiation's, even
// where the file defines a member of the same name in another class: the
// index type's `kRow` (0) is not the tile's row extent. Read as 0, no run
// would enter the loops; as a value of the instantiation, a run picks it.
// strict: WL006

struct Index3 {
  static int const kRow = 0;
  static int const kCol = 1;
  int v[2];
};

template <typename Op, bool kByRow>
class PairReduce {
 public:
  using Tile = typename Op::Tile;
  static int const kSpan = kByRow ? Tile::kRow : Tile::kCol;
  static int const kSteps = kSpan / 8;

  __device__ void reduce(float (&acc)[kSteps]) {
    for (int i = 0; i < kSteps; ++i) {
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
