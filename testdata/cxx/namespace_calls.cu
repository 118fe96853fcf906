// An unscoped call finds its own namespace's function first, as C++
// looks the name up there before any other namespace. Generated kernel
// files often repeat the same helper names (`reduce`, `approx_exp2`,
// `mbarrier_init`) in one namespace per kernel variant.
// strict: WL002

namespace half_tiles {
__device__ float reduce(float v) {
  return v + __shfl_xor_sync(0x0000ffffu, v, 1);
}
} // namespace half_tiles

namespace whole_tiles {
__device__ float reduce(float v) {
  return v + __shfl_xor_sync(0xffffffffu, v, 1);
}

// Lanes 0-15 call this namespace's `reduce`, whose mask names all 32.
__global__ void low_lanes(float* p) {
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = reduce(p[threadIdx.x]); // expect: WL002
  }
}
} // namespace whole_tiles

namespace half_tiles {
// Look-alike: lanes 0-15 call the half-warp `reduce` of this namespace.
__global__ void low_lanes(float* p) {
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = reduce(p[threadIdx.x]);
  }
}
} // namespace half_tiles

// Every kernel runs in blocks of whole warps.
void launch_all(float* p) {
  whole_tiles::low_lanes<<<4, 128>>>(p);
  half_tiles::low_lanes<<<4, 128>>>(p);
}
