// A stage of a warp-specialized kernel numbers its warps from `kBase`, a
// template parameter whose default is 0: `warp = (threadIdx.x - kBase) / 32`.
// Nothing instantiates it in this file, so nothing shows a base that splits
// a warp; with the default the code states, each worker warp is a hardware
// warp, and the loop from `warp / 2` with a constant step is taken by
// whole warps (clean: a base that is not a multiple of 32 would be an
// instantiation's bug, reported where it is instantiated). The look-alike
// defaults to a base of 16: its "warps" straddle two hardware warps, and
// their lanes leave the loop at different times (finding).

template <int kWorkers, int kBase = 0>
__device__ void regroup(float *tile) {
  const int worker = threadIdx.x - kBase;
  const int warp = worker / 32;
  const int lane = worker & 31;
  for (int group = warp / 2; group < 16; group += kWorkers / 64) {
    float v = tile[group * 32 + lane];
    v += __shfl_xor_sync(0xffffffff, v, 1);
    tile[group * 32 + lane] = v;
  }
}

template <int kWorkers, int kBase = 16>
__device__ void regroup_half(float *tile) {
  const int worker = threadIdx.x - kBase;
  const int warp = worker / 32;
  const int lane = worker & 31;
  for (int group = warp / 2; group < 16; group += kWorkers / 64) {
    float v = tile[group * 32 + lane];
    v += __shfl_xor_sync(0xffffffff, v, 1); // expect: WL002
    tile[group * 32 + lane] = v;
  }
}
