// The second half of select.cuh, included inside namespace `select` after
// `namespace geo = geometry;`. Its names resolve only there.
//
// `block_extremes` is clean: `warp == 0` holds for whole warps (warp =
// tid / 32), so every lane of warp 0 runs the full-mask shuffles. Checked
// alone, `geo::kWarpLanes` is unknown and the test looks lane-dependent;
// warplint reports nothing here because the unit of select.cuh ran this
// helper with the alias resolved. `half_warp_max` is a real bug whatever
// the context: lanes 16-31 skip the shuffles that name them.
#pragma once

template <unsigned Rows>
__device__ inline float2 block_extremes(float lo, float hi, float *lo_part,
                                        float *hi_part) {
  unsigned lane = threadIdx.x % geo::kWarpLanes;
  unsigned warp = threadIdx.x / geo::kWarpLanes;
  for (unsigned d = geo::kWarpLanes / 2; d > 0; d /= 2) {
    lo = fminf(lo, __shfl_xor_sync(0xffffffffu, lo, d));
    hi = fmaxf(hi, __shfl_xor_sync(0xffffffffu, hi, d));
  }
  if (lane == 0) {
    lo_part[warp] = lo;
    hi_part[warp] = hi;
  }
  __syncthreads();
  if (warp == 0) {
    lo = lo_part[lane % (geo::kBlockThreads / geo::kWarpLanes)];
    hi = hi_part[lane % (geo::kBlockThreads / geo::kWarpLanes)];
    for (unsigned d = geo::kWarpLanes / 2; d > 0; d /= 2) {
      lo = fminf(lo, __shfl_xor_sync(0xffffffffu, lo, d));
      hi = fmaxf(hi, __shfl_xor_sync(0xffffffffu, hi, d));
    }
  }
  // Every thread folds the rows its block staged before (Rows of them).
  for (unsigned r = 1; r < Rows; ++r) {
    lo = fminf(lo, lo_part[r * 32]);
    hi = fmaxf(hi, hi_part[r * 32]);
  }
  return make_float2(lo, hi);
}

template <unsigned Rows>
__device__ inline void store_extremes(const float *row, float *lo_part,
                                      float *hi_part, float2 *out) {
  float v = row[threadIdx.x];
  float2 r = block_extremes<Rows>(v, v, lo_part, hi_part);
  if (threadIdx.x == 0) *out = r;
}

__device__ inline float half_warp_max(float v) {
  unsigned lane = threadIdx.x % geo::kWarpLanes;
  if (lane < geo::kWarpLanes / 2) {
    for (unsigned d = 8; d > 0; d /= 2)
      v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, d)); // expect: WL002
  }
  return v;
}

