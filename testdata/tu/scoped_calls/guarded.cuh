// A step that pairs lanes 0-15 only, with the mask of exactly those
// lanes: right for callers of any lanes.
#pragma once

namespace guarded {
__device__ inline float step(float v) {
  if (threadIdx.x % 32 < 16) {
    v += __shfl_xor_sync(0x0000ffffu, v, 1);
  }
  return v;
}
} // namespace guarded
