// The selection library's kernels. Like many header-only libraries it
// splits a long header in two: `select_tail.cuh` is included in the middle
// of namespace `select`, after the short alias `geo` it is written
// against. Checked on its own, `select_tail.cuh` cannot know `geo`; checked
// through this header, every one of its names resolves.
#pragma once
#include "geometry.cuh"

namespace select {
namespace geo = geometry;

#include "select_tail.cuh"

__global__ void __launch_bounds__(geo::kBlockThreads)
row_extremes(const float *rows, float *lo_out, float *hi_out) {
  __shared__ float lo_part[geo::kBlockThreads / geo::kWarpLanes];
  __shared__ float hi_part[geo::kBlockThreads / geo::kWarpLanes];
  float v = rows[blockIdx.x * geo::kBlockThreads + threadIdx.x];
  float2 r = block_extremes<1>(v, v, lo_part, hi_part);
  if (threadIdx.x == 0) {
    lo_out[blockIdx.x] = r.x;
    hi_out[blockIdx.x] = r.y;
  }
}

__global__ void __launch_bounds__(geo::kBlockThreads)
row_half_max(const float *rows, float *out) {
  float v = rows[blockIdx.x * geo::kBlockThreads + threadIdx.x];
  out[blockIdx.x * geo::kBlockThreads + threadIdx.x] = half_warp_max(v);
}
