// strict: WL002
//
// Tensor-core libraries describe a register tile with a class template
// whose element count is a static member, and read it through the tile
// object (`t.ne`), often a reference to one element of a per-thread array.
// A static member belongs to the type, not to the object: every thread
// reads the same value, so the conversion loop below runs the same trips
// in every lane and its full-mask shuffle is correct.
//
// The look-alikes read a member of the same name that is a plain field,
// set per lane: those loops end at different trips in different lanes.

template <int I, int J, typename T>
struct tile {
  static constexpr int ne = I * J / 32;
  T x[ne];
};

// Clean: `t.ne` is tile's static member.
template <int I, int J>
__device__ __forceinline__ void swap_halves(tile<I, J, float> &t) {
  for (int l0 = 0; l0 < t.ne; l0 += 4) {
    t.x[l0 + 1] = __shfl_xor_sync(0xFFFFFFFF, t.x[l0 + 1], 2, 32);
  }
}

__global__ void convert_tiles(float *out) {
  tile<16, 8, float> acc[4];
  for (int k = 0; k < 4; ++k)
    for (int l = 0; l < 4; ++l) acc[k].x[l] = out[threadIdx.x * 16 + 4 * k + l];
  for (int k = 0; k < 4; ++k) swap_halves(acc[k]);
  out[threadIdx.x] = acc[0].x[1];
}

// Look-alike: a fragment whose count is a field each lane sets itself.
struct fragment {
  int ne;
  float x[8];
};

__device__ __forceinline__ void swap_fragment(fragment &f) {
  for (int l0 = 0; l0 < f.ne; l0 += 4) {
    f.x[l0 + 1] = __shfl_xor_sync(0xFFFFFFFF, f.x[l0 + 1], 2, 32); // expect: WL002
  }
}

__global__ void convert_fragments(float *out) {
  fragment frag;
  frag.ne = 4 + 4 * (threadIdx.x % 2);  // 4 in even lanes, 8 in odd ones
  for (int l = 0; l < 8; ++l) frag.x[l] = out[threadIdx.x * 8 + l];
  swap_fragment(frag);
  out[threadIdx.x] = frag.x[1];
}
