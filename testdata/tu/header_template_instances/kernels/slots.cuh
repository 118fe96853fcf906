// strict: WL002
// Kernel templates in a header; host/launch.cu launches them (through a
// launcher template) with the only template arguments they ever get. A
// 256-thread block is cut into `Slots` slots and a slot past the end does
// no work; with `WarpLoad`, a slot broadcasts a coefficient with a
// full-mask shuffle, right only when a slot is whole warps.
//
// `slots_kernel` is launched as <4, true> (64-thread slots) and <1, false>:
// every instance that shuffles has whole-warp slots (clean). The header
// alone states no launch, and warplint then reads `Slots` as any value.
// `narrow_kernel` is also launched as <16, true>: a 16-thread slot past the
// end leaves half a warp named in the mask of a shuffle it never reaches
// (finding).
#pragma once

constexpr int kThreads = 256;

template <int Slots, bool WarpLoad>
__global__ __launch_bounds__(kThreads) void slots_kernel(const float *coef, float *out,
                                                          long long n) {
  constexpr int per_slot = kThreads / Slots;
  const long long item = static_cast<long long>(blockIdx.x) * Slots + threadIdx.x / per_slot;
  float c = 0.0f;
  if constexpr (WarpLoad) {
    if (item < n) {
      float mine = coef[item * 32 + threadIdx.x % 32];
      c = __shfl_sync(0xffffffff, mine, 0);
    }
  } else if (item < n) {
    c = coef[item];
  }
  out[item * per_slot + threadIdx.x % per_slot] = c;
}

template <int Slots, bool WarpLoad>
__global__ __launch_bounds__(kThreads) void narrow_kernel(const float *coef, float *out,
                                                           long long n) {
  constexpr int per_slot = kThreads / Slots;
  const long long item = static_cast<long long>(blockIdx.x) * Slots + threadIdx.x / per_slot;
  float c = 0.0f;
  if constexpr (WarpLoad) {
    if (item < n) {
      float mine = coef[item * 32 + threadIdx.x % 32];
      c = __shfl_sync(0xffffffff, mine, 0); // expect: WL002
    }
  } else if (item < n) {
    c = coef[item];
  }
  out[item * per_slot + threadIdx.x % per_slot] = c;
}
