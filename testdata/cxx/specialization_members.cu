// A member reads its own class's constants and fields, also where other
// classes share the class's name: the specializations of one class
// template, or classes of the same name in two namespaces. A member took
// the first same-named class's before.
// strict: WL002

template <int kWidth> struct Leader;

// Look-alike: lanes 0-15 broadcast with the mask of exactly those lanes.
template <> struct Leader<16> {
  static constexpr int kLanes = 16;
  __device__ float broadcast(float v) {
    if (threadIdx.x % 32 < kLanes) {
      v = __shfl_sync(0x0000ffffu, v, 0);
    }
    return v;
  }
};

// Look-alike: every lane takes the branch (kLanes is this class's 32).
template <> struct Leader<32> {
  static constexpr int kLanes = 32;
  __device__ float broadcast(float v) {
    if (threadIdx.x % 32 < kLanes) {
      v = __shfl_sync(0xffffffffu, v, 0);
    }
    return v;
  }
};

__global__ void leaders(float* p) {
  Leader<16> half;
  Leader<32> whole;
  p[threadIdx.x] = half.broadcast(p[threadIdx.x]) + whole.broadcast(p[threadIdx.x]);
}

// The kernel runs in blocks of whole warps.
void launch_leaders(float* p) { leaders<<<4, 128>>>(p); }

// A member calling a member of its own class calls its own
// specialization's, not the first specialization's of that name.
template <int kWidth> struct Reducer;

template <> struct Reducer<16> {
  __device__ float step(float v) { return v + __shfl_xor_sync(0x0000ffffu, v, 1); }
  // Look-alike: lanes 0-15 call the step whose mask names exactly them.
  __device__ float run(float v) {
    if (threadIdx.x % 32 < 16) {
      v = step(v);
    }
    return v;
  }
};

template <> struct Reducer<32> {
  __device__ float step(float v) { return v + __shfl_xor_sync(0xffffffffu, v, 1); }
  // Lanes 0-15 call the step whose mask names all 32.
  __device__ float run(float v) {
    if (threadIdx.x % 32 < 16) {
      v = step(v); // expect: WL002
    }
    return v;
  }
};

__global__ void reducers(float* p) {
  Reducer<16> half;
  Reducer<32> whole;
  p[threadIdx.x] = half.run(p[threadIdx.x]) + whole.run(p[threadIdx.x]);
  p[threadIdx.x] += whole.step(p[threadIdx.x]);
}

// The kernel runs in blocks of whole warps.
void launch_reducers(float* p) { reducers<<<4, 128>>>(p); }

namespace by_lane {
struct Tile {
  int slot;
  __device__ Tile() : slot(threadIdx.x % 32) {}
  // Lanes 16-31 skip the branch, but the mask names them.
  __device__ float pick(float v) {
    if (slot < 16) {
      v = __shfl_sync(0xffffffffu, v, 0); // expect: WL002
    }
    return v;
  }
};
} // namespace by_lane

namespace by_block {
struct Tile {
  int slot;
  __device__ Tile() : slot(blockIdx.x) {}
  // Look-alike: `slot` is the block's index, the same in every lane.
  __device__ float pick(float v) {
    if (slot < 16) {
      v = __shfl_sync(0xffffffffu, v, 0);
    }
    return v;
  }
};
} // namespace by_block
