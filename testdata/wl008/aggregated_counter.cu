// WL008: a warp-aggregated counter that counts the lanes that arrived with
// the population count of a full-mask ballot of `true`. Nothing in this file
// calls it, so the finding stays undecided: callers are not visible.

__device__ unsigned reserve_ticket(unsigned *counter)
{
    const unsigned arrived = __popc(__ballot_sync(~0u, true)); // expect: WL008
    const unsigned lane = threadIdx.x & 31u;
    const unsigned lower = __activemask() & ((1u << lane) - 1u);
    unsigned first = 0;
    if (__popc(lower) == 0)
        first = atomicAdd(counter, arrived);
    first = __shfl_sync(0xffffffff, first, __ffs(__activemask()) - 1); // expect: WL008
    return first + __popc(lower);
}

// Any lane present? A constant `__any_sync` over the full mask can only
// answer "yes", and it still waits for all 32.
__device__ bool someone_here()
{
    return __any_sync(0xffffffffu, 1); // expect: WL008
}

// Constant-key match: the group of lanes that are here.
__device__ unsigned same_group()
{
    return __match_any_sync(0xffffffff, 7); // expect: WL008
}
