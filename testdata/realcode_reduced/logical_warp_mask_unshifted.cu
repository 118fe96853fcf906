// The look-alike of logical_warp_mask_clean.cu with a bug: the mask of the
// first logical warp is used by every logical warp (never shifted), so for
// a width below 32 the other lanes call __syncwarp() outside their mask.
namespace detail {
constexpr int warp_threads = 32;
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
        member_mask(0xFFFFFFFFu >> (detail::warp_threads - Width)) {}

  __device__ void Transpose(float (&items)[Items]) {
    for (int i = 0; i < Items; i++) buf[group * Width * Items + Items * lane + i] = items[i];
    __syncwarp(member_mask); // expect: WL006
    for (int i = 0; i < Items; i++) items[i] = buf[group * Width * Items + Width * i + lane];
  }
};
