// A static member called through a class template's instance
// (`Sum<32>::run(v)`) runs that instance's class: the specialization
// written for those arguments, also where it spells them with a constant
// (`Sum<kWarpThreads>`), or a partial specialization whose parameters take
// the rest (`Match<Bits, kWarpThreads>` for `Match<4, 32>`); any other
// instance is the primary template. Before, the call ran the first class
// of the name, the primary, and a full-mask shuffle in the specialization
// was never seen from a half warp.
// strict: WL002

namespace detail {
constexpr int kWarpThreads = 32;

// The primary: the half warp's lanes 0-15 only (the instances this
// file uses are 16 wide).
template <int Lanes>
struct Sum {
  static __device__ float run(float v) {
    for (int o = 8; o > 0; o /= 2) {
      v += __shfl_xor_sync(0x0000ffffu, v, o, 16);
    }
    return v;
  }
};

// The whole warp: every lane must call it.
template <>
struct Sum<kWarpThreads> {
  static __device__ float run(float v) {
    for (int o = 16; o > 0; o /= 2) {
      v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
  }
};

template <int Bits, int Lanes>
struct Match {
  static __device__ unsigned run(unsigned label) {
    return __match_any_sync(0x0000ffffu, label & ((1u << Bits) - 1));
  }
};

template <int Bits>
struct Match<Bits, kWarpThreads> {
  static __device__ unsigned run(unsigned label) {
    return __match_any_sync(0xffffffffu, label & ((1u << Bits) - 1));
  }
};
} // namespace detail

// Lanes 0-15 call the whole-warp specialization.
__global__ void half_warp_sum(float* p) {
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = detail::Sum<32>::run(p[threadIdx.x]); // expect: WL002
  }
}

// Look-alike: lanes 0-15 call the primary's 16-lane instance.
__global__ void half_warp_sum16(float* p) {
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = detail::Sum<16>::run(p[threadIdx.x]);
  }
}

// Lanes 0-15 call the partial specialization for a whole warp.
__global__ void half_warp_match(unsigned* p) {
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = detail::Match<4, 32>::run(p[threadIdx.x]); // expect: WL002
  }
}

// Look-alike: the primary's 16-lane instance.
__global__ void half_warp_match16(unsigned* p) {
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = detail::Match<4, 16>::run(p[threadIdx.x]);
  }
}

void launch_all(float* f, unsigned* u) {
  half_warp_sum<<<4, 128>>>(f);
  half_warp_sum16<<<4, 128>>>(f);
  half_warp_match<<<4, 128>>>(u);
  half_warp_match16<<<4, 128>>>(u);
}
