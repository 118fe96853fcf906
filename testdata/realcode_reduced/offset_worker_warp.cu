// strict: WL002
// A pipeline stage runs on the threads from `kBase` on and numbers its
// warps from there: `warp = (threadIdx.x - kBase) / 32`. Where the code
// states that `kBase` is a whole number of warps (a `static_assert`), each
// warp of the block is one worker warp, and a loop that starts at
// `warp / 2` with a constant step is taken by whole warps, so every lane
// reaches the full-mask shuffles (clean). The look-alikes state only a
// multiple of 16, or nothing: a worker "warp" then straddles two hardware
// warps, whose lanes leave the loop at different times (findings).

template <int kWorkers, int kBase>
__device__ void transpose_groups(float *tile) {
  static_assert(kBase % 32 == 0, "the stage starts at a warp boundary");
  const int worker = threadIdx.x - kBase;
  const int warp = worker / 32;
  const int lane = worker & 31;
  for (int group = warp / 2; group < 16; group += kWorkers / 64) {
    float v = tile[group * 32 + lane];
    v += __shfl_xor_sync(0xffffffff, v, 1);
    tile[group * 32 + lane] = v;
  }
}

template <int kWorkers, int kBase>
__device__ void transpose_groups_half(float *tile) {
  static_assert(kBase % 16 == 0, "the stage starts at a half warp");
  const int worker = threadIdx.x - kBase;
  const int warp = worker / 32;
  const int lane = worker & 31;
  for (int group = warp / 2; group < 16; group += kWorkers / 64) {
    float v = tile[group * 32 + lane];
    v += __shfl_xor_sync(0xffffffff, v, 1); // expect: WL002
    tile[group * 32 + lane] = v;
  }
}

template <int kWorkers, int kBase>
__device__ void transpose_groups_unstated(float *tile) {
  const int worker = threadIdx.x - kBase;
  const int warp = worker >> 5;
  const int lane = worker & 31;
  for (int group = warp / 2; group < 16; group += kWorkers / 64) {
    float v = tile[group * 32 + lane];
    v += __shfl_xor_sync(0xffffffff, v, 1); // expect: WL002
    tile[group * 32 + lane] = v;
  }
}
