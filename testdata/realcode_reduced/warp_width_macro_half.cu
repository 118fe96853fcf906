// The look-alike of warp_width_macro_exchange_clean.cu with a bug: the
// width macro gives 16, so `warp_id` changes in the middle of a warp and
// only half of its lanes reach the full-mask __syncwarp().
#define LOG_WIDTH_FOR(arch) (4)
#define WIDTH_FOR(arch) (1 << LOG_WIDTH_FOR(0))

constexpr int lanes_per_group = WIDTH_FOR(0);

template <int Threads, int Items>
class GroupSwap {
  static constexpr int kGroups = (Threads + lanes_per_group - 1) / lanes_per_group;

  float *buf;
  unsigned int lane = threadIdx.x % 32;
  unsigned int group = kGroups == 1 ? 0 : threadIdx.x / lanes_per_group;

 public:
  __device__ GroupSwap(float *scratch) : buf(scratch) {}

  __device__ void Swap(float (&items)[Items]) {
    if (group == 0) {
      for (int i = 0; i < Items; i++) buf[lane * Items + i] = items[i];
      __syncwarp(0xffffffff); // expect: WL002
      for (int i = 0; i < Items; i++) items[i] = buf[i * 32 + lane];
    }
  }
};

__global__ void group_swap_kernel(float *out) {
  __shared__ float scratch[32 * 4];
  float items[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  GroupSwap<64, 4> ex(scratch);
  ex.Swap(items);
  out[threadIdx.x] = items[0];
}
