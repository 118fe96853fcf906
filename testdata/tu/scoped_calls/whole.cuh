// A reduction step over the whole warp: every lane must call it.
#pragma once

namespace whole {
__device__ inline float step(float v) {
  return v + __shfl_down_sync(0xffffffffu, v, 8);
}
} // namespace whole
