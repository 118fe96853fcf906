// Helpers that take a tile whose size is their template value
// (`cg::thread_block_tile<N>`): each instance the code calls (`<16>`) is
// a tile of that many threads, with that tile's mask and width.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <int N>
__device__ float tile_total(const cg::thread_block_tile<N> &t, float v) {
    for (int o = N / 2; o > 0; o /= 2) {
        v += t.shfl_down(v, o);
    }
    return v;
}

template <int N>
__device__ float tile_leader_value(const cg::thread_block_tile<N> &t, float v) {
    return t.shfl(v, 0);
}

// Only the threads below a bound reduce; the 16-thread tile that the bound
// cuts through waits for threads that never come.
__global__ void total_below(const float *in, float *out, int n) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    float v = in[threadIdx.x];
    if (threadIdx.x < n) {
        v = tile_total<16>(tile, v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// The first four threads of each tile broadcast; the tile's other twelve
// are named but absent.
__global__ void leader_of_quarter(const float *in, float *out) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    float v = in[threadIdx.x];
    if (tile.thread_rank() < 4) {
        v = tile_leader_value<16>(tile, v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// The look-alike: every thread of every tile reduces, and the bound only
// picks which result is kept.
__global__ void total_all(const float *in, float *out, int n) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    float v = in[threadIdx.x];
    float s = tile_total<16>(tile, v);
    out[threadIdx.x] = threadIdx.x < n ? s : v;
}

// The look-alike: the condition picks whole tiles (the same in all of a
// tile's threads), so each tile that broadcasts is complete.
__global__ void leader_of_second_tile(const float *in, float *out) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    float v = in[threadIdx.x];
    if (tile.meta_group_rank() == 1) {
        v = tile_leader_value<16>(tile, v);
    }
    out[threadIdx.x] = v;
}

// The size deduced from the tile passed (`tile_total(tile, v)`, no
// template argument written): 8-thread tiles, of which lanes 0-1 reduce.
__global__ void deduced_total_of_pairs(const float *in, float *out) {
    auto tile = cg::tiled_partition<8>(cg::this_thread_block());
    float v = in[threadIdx.x];
    if (tile.thread_rank() < 2) {
        v = tile_total(tile, v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// The look-alike: every thread of each deduced 8-thread tile reduces.
__global__ void deduced_total_all(const float *in, float *out) {
    auto tile = cg::tiled_partition<8>(cg::this_thread_block());
    out[threadIdx.x] = tile_total(tile, in[threadIdx.x]);
}

// A kernel's own tile of its template size (`tiled_partition<Lanes>`),
// here launched as 16-thread tiles: a lane with a negative value leaves
// its tile's shuffle short.
template <int Lanes>
__global__ void kernel_tile_positive(const float *in, float *out) {
    auto tile = cg::tiled_partition<Lanes>(cg::this_thread_block());
    float v = in[threadIdx.x];
    if (v > 0.0f) {
        v += tile.shfl_down(v, 1); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// The look-alike: every lane of each tile shuffles.
template <int Lanes>
__global__ void kernel_tile_all(const float *in, float *out) {
    auto tile = cg::tiled_partition<Lanes>(cg::this_thread_block());
    float v = in[threadIdx.x];
    out[threadIdx.x] = v + tile.shfl_down(v, 1);
}

void launch(const float *in, float *out, int n) {
    kernel_tile_positive<16><<<1, 64>>>(in, out);
    kernel_tile_all<16><<<1, 64>>>(in, out);
    deduced_total_of_pairs<<<1, 64>>>(in, out);
    deduced_total_all<<<1, 64>>>(in, out);
    total_below<<<1, 64>>>(in, out, n);
    leader_of_quarter<<<1, 64>>>(in, out);
    total_all<<<1, 64>>>(in, out, n);
    leader_of_second_tile<<<1, 64>>>(in, out);
}
