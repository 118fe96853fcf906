// Look-alikes of WL008 that must stay clean.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// 1. The presence vote at a kernel's top level: every lane of every warp
//    arrives (the block is a multiple of 32), so the full mask is right.
__global__ void count_warps(unsigned *warps_seen)
{
    unsigned everyone = __ballot_sync(0xffffffff, 1);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(warps_seen, __popc(everyone) / 32);
}

// 2. The mask comes from the caller, which took it with a ballot before its
//    branch.
__device__ int *claim_slot(unsigned mask, int *pool, int *next)
{
    int lane = threadIdx.x & 31;
    int leader = __ffs(mask) - 1;
    int base = 0;
    if (lane == leader)
        base = atomicAdd(next, __popc(mask));
    base = __shfl_sync(mask, base, leader);
    return pool + base + __popc(mask & ((1u << lane) - 1));
}

__global__ void claim_some(int *pool, int *next, int **out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned mask = __ballot_sync(0xffffffff, i < n);
    if (i < n)
        out[i] = claim_slot(mask, pool, next);
}

// 3. A consistent opportunistic group: one `__activemask()` read, used for
//    every collective, and `__match_any_sync` for differing keys.
__device__ void bump_key(int *counters, int key)
{
    unsigned together = __activemask();
    unsigned same = __match_any_sync(together, key);
    int lane = threadIdx.x & 31;
    if (lane == __ffs(same) - 1)
        atomicAdd(&counters[key], __popc(same));
    __syncwarp(together);
}

// 4. A vote of a real predicate over the full mask, meant for whole warps.
__device__ int count_negative(float x)
{
    return __popc(__ballot_sync(0xffffffff, x < 0.0f));
}

// 5. Full masks with no sign that a subset was expected: a whole-warp
//    reduction, with an assertion that the warp is full.
__device__ float warp_total(float v)
{
    unsigned seen = __activemask();
    if (seen != 0xffffffff)
        __trap();
    for (int d = 16; d > 0; d >>= 1)
        v += __shfl_xor_sync(0xffffffff, v, d);
    return v;
}

// 6. A static helper in a .cu file: every caller is visible, and they all
//    call it with the whole warp.
static __device__ unsigned lanes_here()
{
    return __ballot_sync(0xffffffff, 1);
}

__global__ void record_lanes(unsigned *out)
{
    unsigned here = lanes_here();
    if ((threadIdx.x & 31) == 0)
        out[blockIdx.x] = here;
}

// 7. An `__activemask()` compared with a constant is not evidence that a
//    subset was expected; neither is a comment: "only some lanes get here".
__device__ void maybe_log(unsigned *log, int flag)
{
    unsigned m = __ballot_sync(0xffffffff, flag);
    if (__activemask() == 0xffffffff)
        log[0] = m;
}

// 8. The opportunistic group of cooperative groups, used for everything.
__device__ int bump_coalesced(int *counter)
{
    cg::coalesced_group group = cg::coalesced_threads();
    int first = 0;
    if (group.thread_rank() == 0)
        first = atomicAdd(counter, group.size());
    return group.shfl(first, 0) + group.thread_rank();
}

// 9. A device lambda with a presence vote, called by every lane of the
//    kernel: lambdas are not checked (their calls are not linked to them).
__global__ void lambda_everyone(unsigned *out)
{
    auto here = [] __device__ () { return __ballot_sync(0xffffffff, 1); };
    out[threadIdx.x] = here();
}

void launch(unsigned *w, int *pool, int *next, int **out, unsigned *lanes)
{
    count_warps<<<4, 128>>>(w);
    claim_some<<<4, 128>>>(pool, next, out, 300);
    record_lanes<<<4, 128>>>(lanes);
}
