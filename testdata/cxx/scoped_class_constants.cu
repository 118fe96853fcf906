// Constants read through their class or enum (`Wide::kLanes`): each is
// that scope's own value. Libraries reuse such names with other values in
// other classes, and a name read by its last segment alone would take
// whichever class defined it last, or a class member's value where a
// namespace constant of that name is meant.
// strict: WL002

struct Wide {
  static constexpr int kLanes = 32;
};
struct Narrow {
  static constexpr int kLanes = 16;
};

// Look-alike: every lane of each warp takes the branch (32 of 32).
__global__ void every_lane(float* p) {
  float v = p[threadIdx.x];
  if (threadIdx.x % 32 < Wide::kLanes) {
    v += __shfl_xor_sync(0xffffffffu, v, 1);
  }
  p[threadIdx.x] = v;
}

// Lanes 16-31 skip the branch, but the mask names them.
__global__ void half_the_lanes(float* p) {
  float v = p[threadIdx.x];
  if (threadIdx.x % 32 < Narrow::kLanes) {
    v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
  }
  p[threadIdx.x] = v;
}

// The earlier class has the smaller value this time.
struct HalfTile {
  static constexpr int kWidth = 16;
};
struct FullTile {
  static constexpr int kWidth = 32;
};

__global__ void half_tile(float* p) {
  float v = p[threadIdx.x];
  if (threadIdx.x % 32 < HalfTile::kWidth) {
    v += __shfl_down_sync(0xffffffffu, v, 4); // expect: WL002
  }
  p[threadIdx.x] = v;
}

// A namespace constant and a class member of the same name: code outside
// the class reads the namespace's.
constexpr int kSpan = 32;
struct OddSpan {
  static constexpr int kSpan = 8;
};

// Look-alike: `kSpan` is the namespace's 32.
__global__ void namespace_span(float* p) {
  float v = p[threadIdx.x];
  if (threadIdx.x % 32 < kSpan) {
    v += __shfl_xor_sync(0xffffffffu, v, 2);
  }
  p[threadIdx.x] = v;
}

__global__ void class_span(float* p) {
  float v = p[threadIdx.x];
  if (threadIdx.x % 32 < OddSpan::kSpan) {
    v += __shfl_xor_sync(0xffffffffu, v, 2); // expect: WL002
  }
  p[threadIdx.x] = v;
}

// Scoped enums with an enumerator of the same name.
enum class Coarse { kGroup = 32 };
enum class Fine { kGroup = 8 };

// Look-alike: `Coarse::kGroup` is 32.
__global__ void coarse_groups(float* p) {
  float v = p[threadIdx.x];
  if (threadIdx.x % 32 < static_cast<int>(Coarse::kGroup)) {
    v += __shfl_xor_sync(0xffffffffu, v, 1);
  }
  p[threadIdx.x] = v;
}

__global__ void fine_groups(float* p) {
  float v = p[threadIdx.x];
  if (threadIdx.x % 32 < static_cast<int>(Fine::kGroup)) {
    v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
  }
  p[threadIdx.x] = v;
}
