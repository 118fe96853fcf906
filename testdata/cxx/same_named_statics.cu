// Two classes with a static constant of the same name and different
// values: each member reads its own class's. The file's constants hold
// one value per name (the later class's), so a member of the earlier
// class must not read that one.
// strict: WL002

struct HalfWarpLeader {
  static const int kLanes = 16;

  // Only lanes 0-15 of warp 0 take the branch, but the mask names all 32.
  __device__ float broadcast(float v) {
    if (threadIdx.x < kLanes) {
      v = __shfl_sync(0xffffffffu, v, 0); // expect: WL002
    }
    return v;
  }
};

struct WholeWarpLeader {
  static const int kLanes = 32;

  // Look-alike: the branch holds whole warps (warp 0), so the mask is right.
  __device__ float broadcast(float v) {
    if (threadIdx.x < kLanes) {
      v = __shfl_sync(0xffffffffu, v, 0);
    }
    return v;
  }
};
