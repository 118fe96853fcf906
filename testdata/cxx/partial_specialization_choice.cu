// An object of a class template with several partial specializations is of
// the most specialized one its arguments match, as C++ picks, whichever is
// declared first; and an object whose type is a member type of a template
// parameter (`typename Traits::Accumulator`) is of no class the file is
// known to have, even one of that name. Both were taken for the first
// partial specialization that matched, whose member waits at a block
// barrier (held-out flash-attn layer_norm: 7 false WL007 findings).
// strict: WL007

namespace rowsum {

template <typename T, int kStages, int kRows, int kCols> struct Accumulator;

// Several warps per row: the row's warps meet at a block barrier.
template <typename T, int kRows, int kCols> struct Accumulator<T, 1, kRows, kCols> {
  T *slots;
  __device__ explicit Accumulator(T *s) : slots(s) {}
  __device__ T total(T v) {
    if (threadIdx.x % 32 == 0) slots[threadIdx.x / 32] = v;
    __syncthreads();
    return slots[0];
  }
};

// One warp per row: a butterfly within the warp, no block barrier. It
// fixes two arguments, so `Accumulator<float, 1, 4, 1>` is this one.
template <typename T, int kRows> struct Accumulator<T, 1, kRows, 1> {
  __device__ explicit Accumulator(T *) {}
  __device__ T total(T v) {
    for (int step = 16; step > 0; step /= 2) v += __shfl_xor_sync(0xffffffffu, v, step);
    return v;
  }
};

// Look-alike: only the warps below `active` sum, each a whole warp with
// the butterfly; no barrier is on the way.
__global__ void row_totals(const float *in, float *out, int active) {
  __shared__ float slots[32];
  Accumulator<float, 1, 4, 1> acc(slots);
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x / 32 < active) {
    v = acc.total(v);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// The same guard around the several-warps accumulator: the warps at or
// past `active` never reach its barrier.
__global__ void row_totals_split(const float *in, float *out, int active) {
  __shared__ float slots[32];
  Accumulator<float, 1, 4, 8> acc(slots);
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x / 32 < active) {
    v = acc.total(v); // expect: WL007
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Look-alike: the accumulator is whatever the traits name. The kernel may
// be instantiated with either, and nothing here says which.
template <typename Traits>
__global__ void traits_totals(const float *in, float *out, int active) {
  __shared__ float slots[32];
  using Accumulator = typename Traits::Accumulator;
  Accumulator acc(slots);
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x / 32 < active) {
    v = acc.total(v);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

}  // namespace rowsum

// The library's classes and kernels live in a namespace, as in real code:
// the namespace narrows the candidates, and the arguments still decide.
void launch_totals(const float *in, float *out, int active) {
  rowsum::row_totals<<<8, 256>>>(in, out, active);
  rowsum::row_totals_split<<<8, 256>>>(in, out, active);
}
