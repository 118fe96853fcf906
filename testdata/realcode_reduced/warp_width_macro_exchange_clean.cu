// strict: WL002, WL007
// A time-sliced exchange whose warp width comes from a function-like macro
// that ignores its argument (as CUB's CUB_WARP_THREADS(0) does): the width
// is the constant 32, so `warp_id` is the warp's index and whole warps take
// `warp_id == slice`; the full-mask __syncwarp() is right.
#define LOG_WIDTH_FOR(arch) (5)
#define WIDTH_FOR(arch) (1 << LOG_WIDTH_FOR(0))
#define CURRENT_WIDTH WIDTH_FOR(0)

namespace detail {
constexpr int lanes_per_warp = CURRENT_WIDTH;
}

__device__ __forceinline__ int LinearIndex(int dim_x, int dim_y) {
  return static_cast<int>(((dim_y == 1) ? 0 : (threadIdx.y * dim_x)) + threadIdx.x);
}

template <int DimX, int Items, int DimY = 1>
class SlicedSwap {
  static constexpr int kThreads = DimX * DimY;
  static constexpr int kWidth = detail::lanes_per_warp;
  static constexpr int kWarps = (kThreads + kWidth - 1) / kWidth;

  float *buf;
  unsigned int linear_tid = LinearIndex(DimX, DimY);
  unsigned int lane = threadIdx.x % 32;
  unsigned int warp_id = kWarps == 1 ? 0 : linear_tid / kWidth;

 public:
  __device__ SlicedSwap(float *scratch) : buf(scratch) {}

  __device__ void Swap(float (&items)[Items]) {
    if (warp_id == 0) {
      for (int i = 0; i < Items; i++) buf[lane * Items + i] = items[i];
      __syncwarp(0xffffffff);
      for (int i = 0; i < Items; i++) items[i] = buf[i * 32 + lane];
    }
    for (int slice = 1; slice < kWarps; ++slice) {
      __syncthreads();
      if (warp_id == slice) {
        for (int i = 0; i < Items; i++) buf[lane * Items + i] = items[i];
        __syncwarp(0xffffffff);
        for (int i = 0; i < Items; i++) items[i] = buf[i * 32 + lane];
      }
    }
  }
};

__global__ void swap_kernel(float *out) {
  __shared__ float scratch[32 * 4];
  float items[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  SlicedSwap<64, 4> ex(scratch);
  ex.Swap(items);
  out[threadIdx.x] = items[0];
}
