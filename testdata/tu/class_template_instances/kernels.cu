// The header's member runs with the instance each call writes: `Part<32>`
// from half a warp is a bug, `Part<16>` from the same lanes is not.
// strict: WL002
#include <lib/part.cuh>

__global__ void half_warp16(float* p) {
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = Part<16>::broadcast(p[threadIdx.x]);
  }
}

__global__ void half_warp32(float* p) {
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = Part<32>::broadcast(p[threadIdx.x]); // expect: WL002
  }
}

// The same through a type alias, as CUB's documentation writes it.
__global__ void half_warp_alias(float* p) {
  typedef Part<32> WholeWarp;
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = WholeWarp::broadcast(p[threadIdx.x]); // expect: WL002
  }
}

void launch_all(float* p) {
  half_warp16<<<4, 128>>>(p);
  half_warp32<<<4, 128>>>(p);
  half_warp_alias<<<4, 128>>>(p);
}
