// As logical_warp_mask_clean.cu, with the power-of-two test written as an
// older CUB does, through a trait's enumerator `PowerOfTwo<N>::VALUE`: for
// every width the code admits each lane's mask holds itself.
template <int N>
struct PowerOfTwo {
  enum { VALUE = ((N & (N - 1)) == 0) };
};

constexpr int kWarpLanes = 32;

template <int Width>
__device__ __forceinline__ unsigned SubWarpMask(unsigned sub) {
  constexpr bool pow2 = PowerOfTwo<Width>::VALUE;
  constexpr bool whole = Width == kWarpLanes;
  unsigned mask = 0xFFFFFFFFu >> (kWarpLanes - Width);
  if (pow2 && !whole) {
    mask <<= sub * Width;
  }
  return mask;
}

template <int Width = kWarpLanes>
struct SubWarpSum {
  static constexpr bool IS_WHOLE = Width == kWarpLanes;
  const unsigned sub;
  const unsigned mask;

  __device__ SubWarpSum()
      : sub(IS_WHOLE ? 0 : (threadIdx.x % 32) / Width), mask(SubWarpMask<Width>(sub)) {}

  __device__ int Count(bool flag) { return __popc(__ballot_sync(mask, flag)); }
};
