// Two headers define `step` in two namespaces; each call takes its own
// namespace's, whichever header comes first.
// strict: WL002
#include "whole.cuh"
#include "guarded.cuh"

// Look-alike: lanes 0-15 call the step that names only lanes 0-15.
__global__ void low_lanes(float* p) {
  float v = p[threadIdx.x];
  if (threadIdx.x % 32 < 16) {
    v = guarded::step(v);
  }
  p[threadIdx.x] = v;
}

// Look-alike: every lane calls the whole-warp step.
__global__ void every_lane(float* p) {
  p[threadIdx.x] = whole::step(p[threadIdx.x]);
}

// Lanes 0-15 call the whole-warp step.
__global__ void low_lanes_whole_step(float* p) {
  float v = p[threadIdx.x];
  if (threadIdx.x % 32 < 16) {
    v = whole::step(v); // expect: WL002
  }
  p[threadIdx.x] = v;
}

// Every kernel runs in blocks of whole warps.
void launch_all(float* p) {
  low_lanes<<<4, 128>>>(p);
  every_lane<<<4, 128>>>(p);
  low_lanes_whole_step<<<4, 128>>>(p);
}
