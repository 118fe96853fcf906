// strict: WL002
// A warp primitive inside a brace initializer, `Packed{__shfl_xor_sync(…)}`,
// as template libraries wrap a shuffled value in a small type. The
// elements of an initializer were not lowered at all (the aggregate was one
// unknown value), so the shuffle inside was invisible to every rule.
//
// `combine` shuffles with every lane present (clean); `combine_even` does
// it only in even lanes while the mask names all 32 (finding).

struct Packed {
  float value;
};

__device__ float larger(float a, Packed b) { return a > b.value ? a : b.value; }

__device__ float combine(float v) {
  for (int d = 1; d < 32; d *= 2) {
    v = larger(v, Packed{__shfl_xor_sync(0xffffffff, v, d)});
  }
  return v;
}

__device__ float combine_even(float v) {
  if (threadIdx.x % 2 == 0) {
    v = larger(v, Packed{__shfl_xor_sync(0xffffffff, v, 1)}); // expect: WL002
  }
  return v;
}

__global__ void combine_all(const float *in, float *out) {
  float v = in[threadIdx.x];
  out[threadIdx.x] = combine(v) + combine_even(v);
}
