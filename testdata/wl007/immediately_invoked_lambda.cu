// strict: WL007
// A lambda called where it is written, `[] () { … } ()`, as kernels use to
// pick a setup step at compile time (`auto wait = [] () { if constexpr
// (…) { … } else { __syncthreads(); return … ; } } ();`). Only lambdas
// bound to a name were lowered; one called in place was never analysed.
//
// `setup_all` has every thread at the barrier (clean); `setup_even` lets
// only even threads reach it (finding).

__global__ void setup_all(int *flags) {
  auto ready = [] () {
    __syncthreads();
    return 1;
  } ();
  flags[threadIdx.x] = ready;
}

__global__ void setup_even(int *flags) {
  auto ready = [] () {
    if (threadIdx.x % 2 == 0) {
      __syncthreads(); // expect: WL007
    }
    return 1;
  } ();
  flags[threadIdx.x] = ready;
}
