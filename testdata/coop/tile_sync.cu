// Cooperative-group syncs: a tile's sync is a barrier over the tile's lanes,
// not __syncthreads(); a block's sync is __syncthreads().
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// A 16-thread tile whose lanes all take the branch together: the condition
// is the tile's index, the same for every lane of a tile. Clean.
__global__ void tile_sync_uniform_per_tile(float *data) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    float v = data[block.thread_rank()];
    if (tile.meta_group_rank() % 2 == 0) {
        data[block.thread_rank()] = v * 2.0f;
        tile.sync();
        cg::sync(tile);
    }
}

// The tile is split: only its first half reaches the tile barrier.
__global__ void tile_sync_split(float *data) {
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<16>(block);
    if (tile.thread_rank() < 8) {
        data[block.thread_rank()] += 1.0f;
        tile.sync(); // expect: WL002
    }
}

// A warp-sized tile synced under a branch all of its lanes take (a warp
// index test): no block barrier, no finding.
__global__ void warp_tile_sync_per_warp(float *data) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    if (threadIdx.x / 32 == 1) {
        data[threadIdx.x] *= 0.5f;
        cg::sync(warp);
    }
}

// The block barrier under a lane guard: only some threads arrive.
__global__ void block_sync_under_lane_guard(float *data) {
    cg::thread_block block = cg::this_thread_block();
    if (threadIdx.x % 32 < 16) {
        data[threadIdx.x] = 1.0f;
        block.sync(); // expect: WL007
    }
    cg::sync(block);
}

// The same block barrier reached by every thread: clean.
__global__ void block_sync_everyone(float *data) {
    cg::thread_block block = cg::this_thread_block();
    if (threadIdx.x % 32 < 16)
        data[threadIdx.x] = 1.0f;
    block.sync();
    data[threadIdx.x] += data[(threadIdx.x + 1) % blockDim.x];
}

// One leader per tile writes the tile's sum: clean.
__global__ void tile_leader_writes(const int *in, int *out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition(block, 8);
    int v = in[block.thread_rank()];
    for (int d = tile.size() / 2; d > 0; d /= 2)
        v += tile.shfl_down(v, d);
    if (tile.thread_rank() == 0)
        out[tile.meta_group_rank()] = v;
}

// A tile shuffle that only the leader runs: the other lanes of the tile
// never arrive.
__global__ void tile_shuffle_by_leader_only(const int *in, int *out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<8> tile = cg::tiled_partition(block, 8);
    int v = in[block.thread_rank()];
    if (tile.thread_rank() == 0)
        out[tile.meta_group_rank()] = tile.shfl_down(v, 1); // expect: WL002
}

// Groups the text does not size (coalesced threads): their sync is never a
// block barrier.
__global__ void coalesced_sync(const int *in, int *out) {
    if (in[threadIdx.x] > 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        out[threadIdx.x] = active.thread_rank();
        active.sync();
        cg::sync(active);
    }
}
