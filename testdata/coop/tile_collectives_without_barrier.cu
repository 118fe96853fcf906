// A file whose only warp-level code is cooperative-group tile collectives:
// no `_sync` name, no barrier, no shared memory. Its tile shuffles, scans
// and reductions are still collectives that every thread of the tile must
// reach, so the file must be analysed, not skipped as warp-free.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

// Only the even threads of each 32-thread tile shuffle; the odd ones the
// tile names never arrive.
__global__ void tile_shift_even(float *data) {
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    float v = data[threadIdx.x];
    if (tile.thread_rank() % 2 == 0) {
        v += tile.shfl_down(v, 1); // expect: WL002
    }
    data[threadIdx.x] = v;
}

// The look-alike: the whole tile shuffles, and only the use is guarded.
__global__ void tile_shift_all(float *data) {
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    float v = data[threadIdx.x];
    float below = tile.shfl_down(v, 1);
    if (tile.thread_rank() % 2 == 0) {
        v += below;
    }
    data[threadIdx.x] = v;
}

// The first four threads of each 8-thread tile scan; the scan waits for
// all eight.
__global__ void tile_scan_half(int *data) {
    auto tile = cg::tiled_partition<8>(cg::this_thread_block());
    int v = data[threadIdx.x];
    if (tile.thread_rank() < 4) {
        v = cg::inclusive_scan(tile, v); // expect: WL002
    }
    data[threadIdx.x] = v;
}

// The look-alike: the condition picks whole tiles (a tile's rank among
// the tiles is the same in all of its threads), so each scan is complete.
__global__ void tile_scan_second_tile(int *data) {
    auto tile = cg::tiled_partition<8>(cg::this_thread_block());
    int v = data[threadIdx.x];
    if (tile.meta_group_rank() == 1) {
        v = cg::inclusive_scan(tile, v);
    }
    data[threadIdx.x] = v;
}

// A reduction over a 16-thread tile by the threads of one half-warp's
// tile that hold data: the others skip it.
__global__ void tile_sum_some(const float *in, float *out, int n) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    float v = 0.0f;
    if (threadIdx.x < n) {
        v = cg::reduce(tile, in[threadIdx.x], cg::plus<float>()); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// The look-alike: every thread reduces, with a zero where it has no data.
__global__ void tile_sum_all(const float *in, float *out, int n) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    float mine = threadIdx.x < n ? in[threadIdx.x] : 0.0f;
    out[threadIdx.x] = cg::reduce(tile, mine, cg::plus<float>());
}

void launch(float *f, int *i, const float *in, int n) {
    tile_shift_even<<<1, 64>>>(f);
    tile_shift_all<<<1, 64>>>(f);
    tile_scan_half<<<1, 64>>>(i);
    tile_scan_second_tile<<<1, 64>>>(i);
    tile_sum_some<<<1, 64>>>(in, f, n);
    tile_sum_all<<<1, 64>>>(in, f, n);
}
