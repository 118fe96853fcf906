// A tile constant of the template's type argument that the class divides
// before it bounds a loop: `kIterations = kWarpTile / 8`. A run picks
// `WarpShape::kM`; values below 8 make `kIterations` zero, so the loop (and
// the narrowed shuffle in it) would never run. Runs also try the values that
// keep the quotient at one and at four.
// strict: WL006
template <typename WarpShape_, bool kAlongM_>
class TileFold {
public:
  using WarpShape = WarpShape_;
  static bool const kAlongM = kAlongM_;
  static int const kWarpTile = kAlongM ? WarpShape::kM : WarpShape::kN;
  static int const kIterations = kWarpTile / 8;

  // Every lane of the warp folds with its neighbour, but the mask names
  // lanes 0-15 only: lanes 16-31 call it outside their mask.
  __device__ void half_mask(float *acc) {
    float sum[16];
    for (int i = 0; i < kIterations; ++i) {
      sum[i] = acc[i];
      sum[i] += __shfl_xor_sync(0x0000ffffu, sum[i], 1); // expect: WL006
      acc[i] = sum[i];
    }
  }

  // The look-alike: the whole warp, named whole.
  __device__ void full_mask(float *acc) {
    float sum[16];
    for (int i = 0; i < kIterations; ++i) {
      sum[i] = acc[i];
      sum[i] += __shfl_xor_sync(0xffffffffu, sum[i], 1);
      acc[i] = sum[i];
    }
  }
};
