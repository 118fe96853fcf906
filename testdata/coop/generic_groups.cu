// strict: WL002 WL007
// Helpers written once for any group, the programming guide's style: a
// `cg::thread_group` parameter, or a template type parameter. What the
// caller passes decides what the helper's `sync()` and shuffles are: a
// block's `sync()` is a block barrier, a 32-thread tile's a warp barrier,
// and a tile's `shfl_down` names that tile's lanes.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Tree sum over the group's threads through shared scratch.
__device__ int scratch_sum(cg::thread_group g, int *scratch, int v) {
    int rank = g.thread_rank();
    for (int half = g.size() / 2; half > 0; half /= 2) {
        scratch[rank] = v;
        g.sync();
        if (rank < half) {
            v += scratch[rank + half];
        }
        g.sync();
    }
    return v;
}

// The same, handed on through another helper.
__device__ int scratch_sum_twice(cg::thread_group g, int *scratch, int v) {
    return scratch_sum(g, scratch, scratch_sum(g, scratch, v));
}

template <class Group>
__device__ float shuffle_sum(const Group &g, float v) {
    for (int o = g.size() / 2; o > 0; o /= 2) {
        v += g.shfl_down(v, o);
    }
    return v;
}

// Only the threads below `n` take part in a block-wide sum: the block's
// barrier inside the helper waits for threads that never come.
__global__ void block_sum_below(int *out, int n) {
    extern __shared__ int scratch[];
    cg::thread_block block = cg::this_thread_block();
    int v = threadIdx.x;
    if (threadIdx.x < n) {
        v = scratch_sum(block, scratch, v); // expect: WL007
    }
    out[threadIdx.x] = v;
}

// Through a second helper, the block passed straight from the call.
__global__ void block_sum_twice_below(int *out, int n) {
    extern __shared__ int scratch[];
    int v = threadIdx.x;
    if (threadIdx.x < n) {
        v = scratch_sum_twice(cg::this_thread_block(), scratch, v); // expect: WL007
    }
    out[threadIdx.x] = v;
}

// A warp-sized tile, but only the lanes with a positive value sum.
__global__ void warp_sum_positive(const int *in, int *out) {
    __shared__ int scratch[256];
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    int v = in[threadIdx.x];
    if (v > 0) {
        v = scratch_sum(warp, scratch + threadIdx.x / 32 * 32, v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// A 16-thread tile's shuffles, from only the lanes with a positive value.
__global__ void tile_shuffle_positive(const float *in, float *out) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    float v = in[threadIdx.x];
    if (v > 0.0f) {
        v = shuffle_sum(tile, v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// A group held as `thread_group`: its value is the block.
__global__ void erased_block_sync_below(int *data, int n) {
    cg::thread_group g = cg::this_thread_block();
    if (threadIdx.x < n) {
        data[threadIdx.x] = 1;
        g.sync(); // expect: WL007
    }
}

// A member written for any group, called on an object.
struct ScratchSummer {
    int *scratch;
    __device__ int sum(cg::thread_group g, int v) const { return scratch_sum(g, scratch, v); }
};

// Only the threads below `n` call the member with the block.
__global__ void member_block_sum_below(int *out, int n) {
    extern __shared__ int scratch[];
    ScratchSummer summer{scratch};
    int v = threadIdx.x;
    if (threadIdx.x < n) {
        v = summer.sum(cg::this_thread_block(), v); // expect: WL007
    }
    out[threadIdx.x] = v;
}

// Look-alike: every thread calls the member with the block.
__global__ void member_block_sum_all(int *out) {
    extern __shared__ int scratch[];
    ScratchSummer summer{scratch};
    out[threadIdx.x] = summer.sum(cg::this_thread_block(), threadIdx.x);
}

// Look-alike: every thread of the block sums.
__global__ void block_sum_all(int *out) {
    extern __shared__ int scratch[];
    cg::thread_block block = cg::this_thread_block();
    out[threadIdx.x] = scratch_sum(block, scratch, threadIdx.x);
}

// Look-alike: a warp-sized tile under a condition every lane of a warp
// shares (the warp's index), so each warp that sums is whole.
__global__ void warp_sum_first_warps(const int *in, int *out, int warps) {
    __shared__ int scratch[256];
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    int v = in[threadIdx.x];
    if (threadIdx.x / 32 < warps) {
        v = scratch_sum(warp, scratch + threadIdx.x / 32 * 32, v);
    }
    out[threadIdx.x] = v;
}

// Look-alike: the tile's shuffles from all of its lanes; the condition only
// picks the value each lane brings.
__global__ void tile_shuffle_all(const float *in, float *out) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    float v = in[threadIdx.x];
    out[threadIdx.x] = shuffle_sum(tile, v > 0.0f ? v : 0.0f);
}

// Look-alike: a group held as `thread_group` whose value is a 32-thread
// tile, synced under a warp-uniform condition.
__global__ void erased_tile_sync_per_warp(int *data, int warps) {
    cg::thread_group g = cg::tiled_partition(cg::this_thread_block(), 32);
    if (threadIdx.x / 32 < warps) {
        data[threadIdx.x] = 1;
        g.sync();
    }
}

// Look-alike: the threads that are active together form the group, so
// whatever the branch, the group is whole.
__global__ void coalesced_sum_positive(int *out) {
    __shared__ int scratch[256];
    int v = out[threadIdx.x];
    if (v > 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        v = scratch_sum(active, scratch + threadIdx.x / 32 * 32, v);
    }
    out[threadIdx.x] = v;
}
