// Kernels that read the header's classes by their scope: each reads its
// own class's `kActive`, not the one the header defined last.
// strict: WL002
#include "lane_counts.h"

// Look-alike: all 32 lanes of each warp take the branch.
__global__ void whole_tiles(float* p) {
  float v = p[threadIdx.x];
  if (threadIdx.x % 32 < tiles::Whole::kActive) {
    v += __shfl_xor_sync(0xffffffffu, v, 1);
  }
  p[threadIdx.x] = v;
}

// Lanes 8-31 skip the branch, but the mask names them.
__global__ void quarter_tiles(float* p) {
  float v = p[threadIdx.x];
  if (threadIdx.x % 32 < tiles::Quarter::kActive) {
    v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
  }
  p[threadIdx.x] = v;
}
