// Cooperative groups carry their own masks: normally clean.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void tile_reduce(const float *in, float *out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    float v = in[block.thread_rank()];
    for (int offset = tile.size() / 2; offset > 0; offset /= 2)
        v += tile.shfl_down(v, offset);
    if (tile.thread_rank() == 0) out[block.thread_rank() / 16] = v;
    cg::sync(block);
}

__global__ void coalesced_count(const int *in, int *out, int n) {
    int i = threadIdx.x;
    if (i < n && in[i] > 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        int rank = active.thread_rank();
        int total = cg::reduce(active, 1, cg::plus<int>());
        if (rank == 0) atomicAdd(out, total);
    }
}

void launch(const float *a, float *b, const int *c, int *d) {
    tile_reduce<<<1, 64>>>(a, b);
    coalesced_count<<<1, 32>>>(c, d, 20);
}
