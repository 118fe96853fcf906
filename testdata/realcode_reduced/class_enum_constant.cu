// strict: WL002
// An agent class sizes its work with enumerators computed from its policy
// (`enum { TILE = BLOCK * ITEMS, WARPS = BLOCK / 32 };`), which fold only
// once the template is instantiated. They are still constants: one value
// for the whole grid, so a warp's loop bounded by them is warp-uniform and
// every lane reaches the full-mask shuffle (clean). The look-alike starts
// a loop by the lane instead: lanes leave it at different times (finding).

template <class Policy>
struct ScatterAgent {
  enum {
    BLOCK = Policy::BLOCK_THREADS,
    ITEMS = Policy::ITEMS_PER_THREAD,
    TILE = BLOCK * ITEMS,
    WARPS = BLOCK / 32,
  };
  int warp;
  int lane;
  int mine;
  int *out;

  __device__ ScatterAgent(int *o)
      : warp(threadIdx.x / 32), lane(threadIdx.x % 32), mine(o[threadIdx.x]), out(o) {}

  __device__ void scatter() {
    constexpr int per_warp = TILE / WARPS;
    int offset = warp * per_warp;
    const int end = (warp + 1) * per_warp;
    while (offset < end) {
      int n = 32;
      if (lane == 31) n -= out[offset] % 4;
      n = __shfl_sync(0xffffffff, n, 31);
      offset += n;
    }
  }

  __device__ void scatter_own() {
    for (int i = lane; i < 32; i += 8) {
      mine += __shfl_sync(0xffffffff, mine, 0); // expect: WL002
    }
    out[warp * TILE + lane] = mine;
  }
};
