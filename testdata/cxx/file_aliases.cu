// Type aliases the file declares at namespace scope name their class in
// every function after them: `using WholeSum = WarpSum<float, 32>;` before
// the kernels, as much user code writes CUB's `using BlockReduceT =
// cub::BlockReduce<float, 256>;`. Before, only a body's or a class's own
// aliases were followed: the half warp's whole-warp reduction was missed,
// and the member, run alone with a chosen `Lanes`, was a confirmed WL006 on
// correct code. A name two namespaces alias to different classes names
// neither (the kernel in `narrow` would need C++'s lookup to pick one).
// strict: WL002, WL006

template <typename T, int Lanes>
struct WarpSum {
  struct Scratch {
    T slots[32];
  };
  Scratch& scratch;
  __device__ explicit WarpSum(Scratch& s) : scratch(s) {}
  __device__ T Sum(T v) {
    for (int o = Lanes / 2; o > 0; o /= 2) {
      v += __shfl_xor_sync(0xffffffffu >> (32 - Lanes), v, o, Lanes);
    }
    return v;
  }
};

using WholeSum = WarpSum<float, 32>;
typedef WarpSum<float, 16> HalfSum;
typedef HalfSum SameHalf;

namespace wide {
using Sum = WarpSum<float, 32>;
}
namespace narrow {
using Sum = WarpSum<float, 16>;

__global__ void narrow_sum(float* p) {
  __shared__ Sum::Scratch s[4];
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = Sum(s[threadIdx.x / 32]).Sum(p[threadIdx.x]);
  }
}
}  // namespace narrow

__global__ void whole_from_half(float* p) {
  __shared__ WholeSum::Scratch s[4];
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = WholeSum(s[threadIdx.x / 32]).Sum(p[threadIdx.x]); // expect: WL002
  }
}

// Look-alikes: 16-lane sums from lanes 0-15, through an alias and an
// alias of an alias.
__global__ void half_from_half(float* p) {
  __shared__ HalfSum::Scratch s[4];
  if (threadIdx.x % 32 < 16) {
    HalfSum h(s[threadIdx.x / 32]);
    p[threadIdx.x] = h.Sum(p[threadIdx.x]);
  }
}

__global__ void same_half(float* p) {
  __shared__ SameHalf::Scratch s[4];
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = SameHalf(s[threadIdx.x / 32]).Sum(p[threadIdx.x]);
  }
}

void launch_all(float* p) {
  narrow::narrow_sum<<<4, 128>>>(p);
  whole_from_half<<<4, 128>>>(p);
  half_from_half<<<4, 128>>>(p);
  same_half<<<4, 128>>>(p);
}
