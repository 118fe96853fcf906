// The classes of same_named_statics.cu in the other order: the file's one
// value per name is now the half warp's, and the whole-warp member must
// still read its own 32 (no finding), not 16.
// strict: WL002

struct WholeWarpLeader {
  static const int kLanes = 32;

  // The branch holds whole warps (warp 0), so the full mask is right.
  __device__ float broadcast(float v) {
    if (threadIdx.x < kLanes) {
      v = __shfl_sync(0xffffffffu, v, 0);
    }
    return v;
  }
};

struct HalfWarpLeader {
  static const int kLanes = 16;

  __device__ float broadcast(float v) {
    if (threadIdx.x < kLanes) {
      v = __shfl_sync(0xffffffffu, v, 0); // expect: WL002
    }
    return v;
  }
};
