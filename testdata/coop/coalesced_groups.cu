// strict: WL002
// A coalesced group holds the lanes that were together where
// `cg::coalesced_threads()` ran: used there, it names exactly the lanes
// that take part; used after the lanes split further, it names lanes that
// never arrive, as a full mask would.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// The group is formed by the whole warp, the sum run by the lanes with a
// positive value only.
__global__ void count_positive_early(const int *in, int *out) {
    cg::coalesced_group active = cg::coalesced_threads();
    int v = in[threadIdx.x];
    if (v > 0) {
        int total = cg::reduce(active, 1, cg::plus<int>()); // expect: WL002
        if (active.thread_rank() == 0) atomicAdd(out, total);
    }
}

// Formed before a branch on the lane, synced inside it.
__global__ void half_warp_sync_early(int *out) {
    auto active = cg::coalesced_threads();
    if (threadIdx.x % 32 < 16) {
        out[threadIdx.x] = 1;
        active.sync(); // expect: WL002
    }
}

// Formed inside a branch, then used one branch deeper: the group holds the
// lanes with a positive value, the broadcast runs in the even ones.
__global__ void broadcast_even_of_positive(int *data) {
    int v = data[threadIdx.x];
    if (v > 0) {
        auto active = cg::coalesced_threads();
        if (v % 2 == 0) {
            v = active.shfl(v, 0); // expect: WL002
        }
    }
    data[threadIdx.x] = v;
}

// Look-alike: formed where the lanes with a positive value are together,
// and used there.
__global__ void count_positive(const int *in, int *out) {
    int v = in[threadIdx.x];
    if (v > 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        int total = cg::reduce(active, 1, cg::plus<int>());
        int leader = active.shfl(int(threadIdx.x), 0);
        if (active.thread_rank() == 0) out[leader] = total + int(active.size()) - int(active.size());
    }
}

// Look-alike: formed inside the branch on the lane.
__global__ void half_warp_sync(int *out) {
    if (threadIdx.x % 32 < 16) {
        auto active = cg::coalesced_threads();
        out[threadIdx.x] = active.thread_rank();
        active.sync();
    }
}

// Look-alike: formed by the whole warp and used by the whole warp; the
// branch only picks what each lane brings.
__global__ void count_positive_whole_warp(const int *in, int *out) {
    auto active = cg::coalesced_threads();
    int v = in[threadIdx.x];
    int total = cg::reduce(active, v > 0 ? 1 : 0, cg::plus<int>());
    if (active.thread_rank() == 0) atomicAdd(out, total);
}

// Partitions of a group are collectives over it: splitting the whole
// warp's tile from inside a branch waits for lanes that never come.
__global__ void split_tile_in_branch(const int *in, int *out) {
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    int v = in[threadIdx.x];
    if (v > 0) {
        auto big = cg::binary_partition(warp, v > 10); // expect: WL002
        out[threadIdx.x] = big.size();
    }
}

// Look-alike: the whole warp's tile split by a label where every lane is,
// and the parts used there.
__global__ void sum_by_label(const int *in, int *out) {
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    int v = in[threadIdx.x];
    auto same = cg::labeled_partition(warp, v & 3);
    int s = cg::reduce(same, v, cg::plus<int>());
    int first = same.shfl(v, 0);
    if (same.thread_rank() == 0) out[threadIdx.x] = s + first;
}

// Look-alike: a coalesced group formed in the branch, split there, and the
// parts synced there.
__global__ void split_positive(const int *in, int *out) {
    int v = in[threadIdx.x];
    if (v > 0) {
        auto active = cg::coalesced_threads();
        auto big = cg::binary_partition(active, v > 10);
        big.sync();
        out[threadIdx.x] = big.thread_rank();
    }
}

// An inclusive scan over the group's ranks with `shfl_up`, in a helper.
__device__ int rank_prefix(const cg::coalesced_group &g, int v) {
    for (int d = 1; d < 32; d *= 2) {
        int below = g.shfl_up(v, d);
        if (g.thread_rank() >= static_cast<unsigned>(d)) {
            v += below;
        }
    }
    return v;
}

// The whole warp formed the group; only the positive lanes scan over it.
__global__ void prefix_formed_early(const int *in, int *out) {
    cg::coalesced_group active = cg::coalesced_threads();
    int v = in[threadIdx.x];
    if (v > 0) {
        v = rank_prefix(active, v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// Look-alike: the positive lanes form the group they scan over.
__global__ void prefix_formed_inside(const int *in, int *out) {
    int v = in[threadIdx.x];
    if (v > 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        v = rank_prefix(active, v);
    }
    out[threadIdx.x] = v;
}

// Each positive lane adds the next positive lane's value, but the group
// is the whole warp's.
__global__ void next_formed_early(const int *in, int *out) {
    auto active = cg::coalesced_threads();
    int v = in[threadIdx.x];
    if (v > 0) {
        v += active.shfl_down(v, 1); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// Look-alike: the group of the positive lanes.
__global__ void next_formed_inside(const int *in, int *out) {
    int v = in[threadIdx.x];
    if (v > 0) {
        auto active = cg::coalesced_threads();
        v += active.shfl_down(v, 1);
    }
    out[threadIdx.x] = v;
}
