// A small library of collectives written once for any cooperative group:
// the caller's group decides what each `sync()` and shuffle is.
#pragma once
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

namespace groupkit {

// Every thread of `g` publishes a value, then reads its neighbour's: the
// group's barrier orders the two.
__device__ inline int exchange_with_next(cg::thread_group g, int *slots, int v) {
    unsigned r = g.thread_rank();
    slots[r] = v;
    g.sync();
    int next = slots[(r + 1) % g.size()];
    g.sync();
    return next;
}

// Butterfly maximum over the group's lanes.
template <typename Group>
__device__ float group_max(const Group &g, float v) {
    for (int o = g.size() / 2; o > 0; o /= 2) {
        v = fmaxf(v, g.shfl_xor(v, o));
    }
    return v;
}

} // namespace groupkit
