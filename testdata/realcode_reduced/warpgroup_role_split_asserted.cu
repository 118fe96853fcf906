// strict: WL002
// Producer/consumer kernels split the block by role at a thread count the
// code states in a `static_assert`: a whole number of 128-thread
// warpgroups, sometimes asserted inside the constexpr helper that computes
// the block size from the template values. The split is then on warp
// boundaries and the consumers' full-mask broadcast is correct (clean).
// The look-alikes assert only a multiple of 16, or nothing, so a launch
// can cut a warp in two at the role split (findings).

#define CHECK_CONFIG(cond, why) static_assert(cond, why)

template <unsigned kLoaders, unsigned kPerGroup>
__host__ __device__ constexpr unsigned block_threads(unsigned tile_rows) {
  CHECK_CONFIG(kPerGroup == 128, "each consumer group is one warpgroup");
  return (tile_rows == 64 ? 1 : 2) * kPerGroup + kLoaders;
}

template <unsigned TILE_ROWS, unsigned kLoaders, unsigned kPerGroup>
__global__ void __launch_bounds__(block_threads<kLoaders, kPerGroup>(TILE_ROWS), 1)
    roles_from_helper(float *out, const float *in) {
  constexpr unsigned kAll = block_threads<kLoaders, kPerGroup>(TILE_ROWS);
  constexpr unsigned kConsumers = kAll - kLoaders;
  if (threadIdx.x >= kConsumers) {
    if (threadIdx.x == kConsumers) out[0] = in[0];
  } else {
    float v = in[threadIdx.x];
    out[threadIdx.x] = __shfl_sync(0xffffffff, v, 0);
  }
}

template <unsigned kGroups, unsigned kPerGroup>
__global__ void roles_asserted_here(float *out, const float *in) {
  static_assert(kPerGroup % 128 == 0, "consumer groups are whole warpgroups");
  constexpr unsigned kConsumers = kGroups * kPerGroup;
  if (threadIdx.x < kConsumers) {
    float v = in[threadIdx.x];
    out[threadIdx.x] = __shfl_sync(0xffffffff, v, 0);
  }
}

template <unsigned kGroups, unsigned kPerGroup>
__global__ void roles_half_warp_groups(float *out, const float *in) {
  static_assert(kPerGroup % 16 == 0, "groups of half warps");
  constexpr unsigned kConsumers = kGroups * kPerGroup;
  if (threadIdx.x < kConsumers) {
    float v = in[threadIdx.x];
    out[threadIdx.x] = __shfl_sync(0xffffffff, v, 0); // expect: WL002
  }
}

template <unsigned kGroups, unsigned kPerGroup>
__global__ void roles_unstated(float *out, const float *in) {
  constexpr unsigned kConsumers = kGroups * kPerGroup;
  if (threadIdx.x < kConsumers) {
    float v = in[threadIdx.x];
    out[threadIdx.x] = __shfl_sync(0xffffffff, v, 0); // expect: WL002
  }
}

// An assertion inside `if constexpr` holds only for the instantiations
// that take that branch: the narrow ones may cut a warp (finding).
template <bool kWide, unsigned kGroups, unsigned kPerGroup>
__global__ void roles_asserted_in_branch(float *out, const float *in) {
  if constexpr (kWide) {
    static_assert(kPerGroup % 128 == 0, "wide groups are warpgroups");
  }
  constexpr unsigned kConsumers = kGroups * kPerGroup;
  if (threadIdx.x < kConsumers) {
    float v = in[threadIdx.x];
    out[threadIdx.x] = __shfl_sync(0xffffffff, v, 0); // expect: WL002
  }
}
