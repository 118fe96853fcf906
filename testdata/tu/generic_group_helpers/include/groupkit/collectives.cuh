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

// One slot per lane of a coalesced group: its first lane reserves them
// all, the others read the base back.
__device__ inline int reserve_slots(const cg::coalesced_group &g, int *counter) {
    int base = 0;
    if (g.thread_rank() == 0) {
        base = atomicAdd(counter, static_cast<int>(g.size()));
    }
    return g.shfl(base, 0) + static_cast<int>(g.thread_rank());
}

} // namespace groupkit
