// An object or a static call through a type alias the body declares is of
// the aliased class, with its template arguments: the documented CUB
// idiom `typedef cub::WarpReduce<int, 16> WarpReduce;`, or `using`.
// Before, `WS ws(…)` was an object of an unknown class `WS`: its member
// was never run, and a half warp calling a whole-warp reduction was
// missed.
// strict: WL002

template <typename T, int LogicalWarp>
struct WarpSum {
  struct TempStorage {
    T slots[32];
  };
  TempStorage& storage;
  unsigned members;
  __device__ explicit WarpSum(TempStorage& s)
      : storage(s), members(0xffffffffu >> (32 - LogicalWarp)) {}
  __device__ T Sum(T v) {
    for (int o = LogicalWarp / 2; o > 0; o /= 2) {
      v += __shfl_xor_sync(members, v, o, LogicalWarp);
    }
    return v;
  }
  static __device__ T First(T v) {
    return __shfl_sync(0xffffffffu >> (32 - LogicalWarp), v, 0, LogicalWarp);
  }
};

// Look-alike: 16-lane reductions from lanes 0-15 of each warp.
__global__ void using_half(float* p) {
  using WS = WarpSum<float, 16>;
  __shared__ WS::TempStorage storage[4];
  if (threadIdx.x % 32 < 16) {
    WS ws(storage[threadIdx.x / 32]);
    p[threadIdx.x] = ws.Sum(p[threadIdx.x]);
  }
}

// Lanes 0-15 run a reduction whose mask names the whole warp.
__global__ void typedef_whole(float* p) {
  typedef WarpSum<float, 32> WS;
  __shared__ WS::TempStorage storage[4];
  if (threadIdx.x % 32 < 16) {
    WS ws(storage[threadIdx.x / 32]);
    p[threadIdx.x] = ws.Sum(p[threadIdx.x]); // expect: WL002
  }
}

// The static member through the alias.
__global__ void static_whole(float* p) {
  using WS = WarpSum<float, 32>;
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = WS::First(p[threadIdx.x]); // expect: WL002
  }
}

__global__ void static_half(float* p) {
  using WS = WarpSum<float, 16>;
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = WS::First(p[threadIdx.x]);
  }
}

void launch_all(float* p) {
  using_half<<<4, 128>>>(p);
  typedef_whole<<<4, 128>>>(p);
  static_whole<<<4, 128>>>(p);
  static_half<<<4, 128>>>(p);
}
