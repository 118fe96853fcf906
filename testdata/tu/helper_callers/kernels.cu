// The callers of lanes.cuh's helpers.
#include "lanes.cuh"

__global__ void whole(float* p) {
  p[threadIdx.x] = lead_broadcast(p[threadIdx.x], 32);
}

__global__ void heads(float* p) {
  p[threadIdx.x] = head_broadcast(p[threadIdx.x], 16);
}

// Both run in blocks of whole warps.
void launch_all(float* p) {
  whole<<<4, 128>>>(p);
  heads<<<4, 128>>>(p);
}
