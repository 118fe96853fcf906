#pragma once
// A library's warp-level pieces, used the way CUB's agents use theirs:
// each a class template constructed over shared scratch, called as a
// temporary.

template <typename T, int Lanes>
struct WarpShift {
  struct Scratch {
    T slots[32];
  };
  Scratch& scratch;
  __device__ explicit WarpShift(Scratch& s) : scratch(s) {}
  __device__ T Up(T v) {
    return __shfl_up_sync(0xffffffffu >> (32 - Lanes), v, 1, Lanes);
  }
};

// An agent: its class declares the aliases its members construct.
template <int Threads, int Lanes>
struct Agent {
  typedef WarpShift<float, Lanes> ShiftT;
  typename ShiftT::Scratch& scratch;
  __device__ explicit Agent(typename ShiftT::Scratch& s) : scratch(s) {}
  __device__ float Step(float v) {
    if (threadIdx.x % 32 < 16) {
      v = ShiftT(scratch).Up(v); // expect: WL002
    }
    return v;
  }
};
