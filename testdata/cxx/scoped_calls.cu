// Calls that name their class or namespace (`LowHalf::combine(v)`,
// `half::sum(v)`) call that scope's function, not the first function of
// that name in the file. Libraries give many classes a static `combine`
// or `Sum` with different masks (one per warp width or layout).
// strict: WL002

struct WholeWarp {
  __device__ static float combine(float v) {
    return v + __shfl_xor_sync(0xffffffffu, v, 1);
  }
};
struct LowHalf {
  __device__ static float combine(float v) {
    return v + __shfl_xor_sync(0x0000ffffu, v, 1);
  }
};

// Look-alike: every lane calls the whole-warp combine.
__global__ void whole_warp(float* p) {
  p[threadIdx.x] = WholeWarp::combine(p[threadIdx.x]);
}

// Look-alike: lanes 0-15 call the combine whose mask names them.
__global__ void low_half(float* p) {
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = LowHalf::combine(p[threadIdx.x]);
  }
}

// Lanes 0-15 call the combine whose mask names all 32 lanes.
__global__ void low_half_whole_mask(float* p) {
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = WholeWarp::combine(p[threadIdx.x]); // expect: WL002
  }
}

namespace full {
__device__ float sum(float v) { return v + __shfl_xor_sync(0xffffffffu, v, 2); }
} // namespace full
namespace half {
__device__ float sum(float v) { return v + __shfl_xor_sync(0x0000ffffu, v, 2); }
} // namespace half

// Look-alike: lanes 0-15 call the half-warp sum.
__global__ void half_sum(float* p) {
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = half::sum(p[threadIdx.x]);
  }
}

__global__ void half_lanes_full_sum(float* p) {
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = full::sum(p[threadIdx.x]); // expect: WL002
  }
}

// Every kernel runs in blocks of whole warps.
void launch_all(float* p) {
  whole_warp<<<4, 128>>>(p);
  low_half<<<4, 128>>>(p);
  low_half_whole_mask<<<4, 128>>>(p);
  half_sum<<<4, 128>>>(p);
  half_lanes_full_sum<<<4, 128>>>(p);
}
