// strict: WL002, WL007
// A block-wide exchange class, as CUB writes it: the linear thread index
// comes from a row-major helper given the block extents (the class's
// template values), and the warp index is that index divided by 32. Whole
// warps take `warp_id == slice`, so the full-mask __syncwarp() is right.
namespace detail {
constexpr int warp_threads = 32;
}

__device__ __forceinline__ int FlatThreadIndex(int dim_x, int dim_y, int dim_z) {
  return static_cast<int>(((dim_z == 1) ? 0 : (threadIdx.z * dim_x * dim_y)) +
                          ((dim_y == 1) ? 0 : (threadIdx.y * dim_x)) + threadIdx.x);
}

template <int DimX, int Items, int DimY = 1, int DimZ = 1>
class TileExchange {
  static constexpr int kThreads = DimX * DimY * DimZ;
  static constexpr int kWarpThreads = detail::warp_threads;
  static constexpr int kWarps = (kThreads + kWarpThreads - 1) / kWarpThreads;

  float *buf;
  unsigned int linear_tid = FlatThreadIndex(DimX, DimY, DimZ);
  unsigned int lane = threadIdx.x % 32;
  unsigned int warp_id = kWarps == 1 ? 0 : linear_tid / kWarpThreads;

 public:
  __device__ TileExchange(float *scratch) : buf(scratch) {}

  __device__ void Exchange(float (&items)[Items]) {
    for (int slice = 0; slice < kWarps; ++slice) {
      __syncthreads();
      if (warp_id == slice) {
        for (int i = 0; i < Items; i++) buf[lane * Items + i] = items[i];
        __syncwarp(0xffffffff);
        for (int i = 0; i < Items; i++) items[i] = buf[i * 32 + lane];
      }
    }
  }
};

__global__ void exchange_kernel(float *out) {
  __shared__ float scratch[32 * 4];
  float items[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  TileExchange<16, 4, 8> ex(scratch);
  ex.Exchange(items);
  out[threadIdx.x] = items[0];
}
