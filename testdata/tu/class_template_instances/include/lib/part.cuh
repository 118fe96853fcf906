#pragma once
// A library's class template: each instance shuffles over its own
// `Lanes` lanes, and only its callers say how many.
template <int Lanes>
struct Part {
  static __device__ float broadcast(float v) {
    return __shfl_sync(0xffffffffu >> (32 - Lanes), v, 0, Lanes);
  }
};
