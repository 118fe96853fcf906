// strict: WL007
// A statement macro that writes a loop around a block passed as its last
// argument, as attention kernels split a tile loop into masked and
// unmasked halves: `TILE_LOOP(i, masked, unmasked, { … });`. The block
// was one argument of a call whose expansion the parser never sees, so
// its statements (and the barriers in them) were not analysed at all,
// whether the macro's definition was known or not.
//
// `tiles_clean` has every thread at the barrier of each tile (clean);
// `tiles_skewed` lets only even threads reach it (finding), and odd
// threads then read their neighbour's slot with no barrier after its
// write (a race). The second kernel uses a macro whose definition this
// file does not have.

#define TILE_LOOP(iter, MASKED, UNMASKED, ...) \
  {                                            \
    for (; (MASKED); (iter) -= 1) {            \
      __VA_ARGS__                              \
    }                                          \
    for (; (UNMASKED); (iter) -= 1) {          \
      __VA_ARGS__                              \
    }                                          \
  }

__global__ void tiles_clean(float *acc, const float *in, int tiles) {
  __shared__ float stage[256];
  int t = tiles;
  TILE_LOOP(t, t > tiles / 2, t > 0, {
    stage[threadIdx.x] = in[t * blockDim.x + threadIdx.x];
    __syncthreads();
    acc[threadIdx.x] += stage[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  });
}

__global__ void tiles_skewed(float *acc, const float *in, int tiles) {
  __shared__ float stage[256];
  int t = tiles;
  OTHER_TILE_LOOP(t, t > tiles / 2, t > 0, {
    stage[threadIdx.x] = in[t * blockDim.x + threadIdx.x];
    if (threadIdx.x % 2 == 0) {
      __syncthreads(); // expect: WL007
    }
    acc[threadIdx.x] += stage[(threadIdx.x + 1) % blockDim.x]; // expect: WL004
  });
}
