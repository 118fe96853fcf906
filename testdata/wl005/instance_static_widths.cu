// strict: WL005
//
// Shuffle widths taken from a traits class template's static members, as
// reduction libraries configure their sub-warp groups: the width is the
// member's value for the instance written (`Group<6>::kWidth`, or through
// an alias, `using Pairs = Group<3>;` then `Pairs::kSpan`).

template <int Lanes>
struct Group {
  static constexpr int kWidth = Lanes;
  static constexpr int kSpan = Lanes * 2;
};

// A group of 6 lanes: not a power of two.
__global__ void sums_of_six(float *out) {
  float v = out[threadIdx.x];
  v += __shfl_xor_sync(0xffffffffu, v, 1, Group<6>::kWidth); // expect: WL005
  out[threadIdx.x] = v;
}

// Look-alike: a group of 8 lanes.
__global__ void sums_of_eight(float *out) {
  float v = out[threadIdx.x];
  v += __shfl_xor_sync(0xffffffffu, v, 1, Group<8>::kWidth);
  out[threadIdx.x] = v;
}

// Through an alias: Group<3>'s span is 6 lanes.
__global__ void pair_sums(float *out) {
  using Pairs = Group<3>;
  float v = out[threadIdx.x];
  v += __shfl_xor_sync(0xffffffffu, v, 1, Pairs::kSpan); // expect: WL005
  out[threadIdx.x] = v;
}

// Look-alike through an alias: Group<4>'s span is 8 lanes.
__global__ void quad_sums(float *out) {
  using Quads = Group<4>;
  float v = out[threadIdx.x];
  v += __shfl_xor_sync(0xffffffffu, v, 1, Quads::kSpan);
  out[threadIdx.x] = v;
}
