// Row reductions over a thread's fragment, bounded by `size<I>(frag)`
// from layout/tile.cuh. The library defines the query, but a fragment's
// shape is the same in every thread: the loops trip alike in every lane,
// and the whole warp reaches each shuffle.
#include "../layout/tile.cuh"

using namespace cute;

__global__ void row_max(float* tiles, float* out) {
  auto frag = thread_fragment<4, 2>(tiles);
  float v = frag(0, 0);
  for (int i = 0; i < size<0>(frag); ++i) {
    // The narrowed mask leaves lanes 16-31 out of a shuffle they call.
    v = fmaxf(v, __shfl_xor_sync(0x0000ffff, v, 1)); // expect: WL006
  }
  out[threadIdx.x] = v;
}

// Look-alike: the same loops with the whole warp's mask.
__global__ void row_sum(float* tiles, float* out) {
  auto frag = thread_fragment<4, 2>(tiles);
  float v = 0.f;
  for (int i = 0; i < size<0>(frag); ++i) {
    for (int j = 0; j < size<1>(frag) - 1; ++j) {
      v += frag(i, j);
    }
    v += __shfl_xor_sync(0xffffffff, v, 1);
  }
  out[threadIdx.x] = v;
}

void reduce_rows(float* tiles, float* out, int blocks, cudaStream_t s) {
  row_max<<<blocks, 128, 0, s>>>(tiles, out);
  row_sum<<<blocks, 128, 0, s>>>(tiles, out);
}
