// strict: WL007
// A barrier inside one arm of an `if constexpr` on a template mode, in a
// kernel that reads threadIdx.y (so the launch shape is an assumption:
// the executor tries a 16 x 16 and a 32 x 8 block). The 16 x 16 run took
// the mode that reaches the barrier and showed the bug; the 32 x 8 run
// picked another mode and never got there. That run says nothing about
// the barrier, so the finding is not "shape-dependent": it was hidden as
// holding for one shape only, though no other shape was seen without it.
//
// `StagedStore<Mode>` has the barrier under `threadIdx.x % 2 == 0`: odd
// threads skip it while even ones wait (finding). `EvenStore<Mode>` is the
// same with every thread at the barrier (clean).

template <int Mode>
struct StagedStore {
  __device__ void store(float *out, float v, int valid) {
    __shared__ int count;
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    if constexpr (Mode == 0) {
      out[t] = v;
    } else if constexpr (Mode == 3) {
      if (t == 0) {
        count = valid;
      }
      if (threadIdx.x % 2 == 0) {
        __syncthreads(); // expect: WL007
      }
      if (t < count) {
        out[t] = v;
      }
    }
  }
};

template <int Mode>
struct EvenStore {
  __device__ void store(float *out, float v, int valid) {
    __shared__ int count;
    int t = threadIdx.y * blockDim.x + threadIdx.x;
    if constexpr (Mode == 0) {
      out[t] = v;
    } else if constexpr (Mode == 3) {
      if (t == 0) {
        count = valid;
      }
      __syncthreads();
      if (t < count) {
        out[t] = v;
      }
    }
  }
};

template <int Mode>
__global__ void store_staged(float *out, float v, int valid) {
  StagedStore<Mode>().store(out, v, valid);
}

template <int Mode>
__global__ void store_even(float *out, float v, int valid) {
  EvenStore<Mode>().store(out, v, valid);
}
