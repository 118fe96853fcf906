// warpkit 2.0, vendored by app_b: the broadcast goes to the lanes that are
// converged here, whoever they are, so it may be called under a branch.
#pragma once
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__device__ inline float wk_broadcast(float v) {
    cg::coalesced_group active = cg::coalesced_threads();
    return active.shfl(v, 0);
}
