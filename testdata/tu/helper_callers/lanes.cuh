// Helpers whose lanes depend on what their callers pass. Alone, the
// header says nothing of its callers: a run of `lead_broadcast` without
// one picks an `n` that splits the warp. Checked with the files that
// call them, the verdict is the one their calls give.
// strict: WL002
#pragma once

// Look-alike: its only caller passes 32, so every lane takes the branch.
__device__ inline float lead_broadcast(float v, int n) {
  if (threadIdx.x % 32 < n) {
    v = __shfl_sync(0xffffffffu, v, 0);
  }
  return v;
}

// Its caller passes 16: lanes 16-31 skip the branch the mask names them in.
__device__ inline float head_broadcast(float v, int n) {
  if (threadIdx.x % 32 < n) {
    v = __shfl_sync(0xffffffffu, v, 0); // expect: WL002
  }
  return v;
}
