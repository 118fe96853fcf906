// strict: WL007
// A tile agent templated on a trait type decides at compile time whether it
// also moves values: `if constexpr (kWithValues::value)`. The same member
// function has a local named `value` that differs between threads. The
// trait's `value` is not that local: the branch is the same for the whole
// grid and its barriers are reached by every thread (clean). The look-alike
// branches on the local `value` itself (finding).

template <class kWithValues>
struct TileAgent {
  float *keys;
  float *vals;

  __device__ void consume(int count) {
    __shared__ float stage[128];
    int value = threadIdx.x == 0 ? count : count + 1;
    stage[threadIdx.x] = keys[threadIdx.x] + value;
    __syncthreads();
    keys[threadIdx.x] = stage[127 - threadIdx.x];
    if constexpr (kWithValues::value) {
      __syncthreads();
      stage[threadIdx.x] = vals[threadIdx.x];
      __syncthreads();
      vals[threadIdx.x] = stage[127 - threadIdx.x];
    }
  }

  __device__ void consume_local(int count) {
    __shared__ float stage[128];
    int value = threadIdx.x == 0 ? count : 0;
    if (value) {
      __syncthreads(); // expect: WL007
      stage[threadIdx.x] = vals[threadIdx.x];
    }
  }
};
