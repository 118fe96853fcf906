// WL008's extension: a helper that reads `__activemask()` to learn which
// lanes are here, then uses the full mask for its collectives anyway.

__device__ float leader_broadcast(float v)
{
    unsigned present = __activemask();
    int leader = __ffs(present) - 1;
    return __shfl_sync(0xffffffff, v, leader); // expect: WL008
}

// The same group made with cooperative groups, then a full-mask vote.
namespace cg = cooperative_groups;

__device__ int first_flagged(int flag)
{
    auto active = cg::coalesced_threads();
    unsigned flagged = __ballot_sync(0xffffffff, flag); // expect: WL008
    return active.size() > 0 ? __ffs(flagged) - 1 : -1;
}
