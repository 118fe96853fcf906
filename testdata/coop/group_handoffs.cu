// strict: WL002
// Groups handed to helpers in the shapes the guide's examples grow into:
// a template kernel's own tile passed to a helper written for any group,
// a coalesced group passed to a helper (typed `cg::coalesced_group`, or
// by a template parameter), and a generic lambda (`[](auto g, …)`) given
// a tile. The helper runs as the group it is given.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <class Group>
__device__ float tile_total(const Group &g, float v) {
    for (int step = g.size() / 2; step > 0; step /= 2) {
        v += g.shfl_down(v, step);
    }
    return v;
}

// The kernel's tile is `Width` threads wide; only the lanes with a
// positive value run the helper's shuffles over the whole tile.
template <int Width>
__global__ void tile_total_positive(const float *in, float *out) {
    auto tile = cg::tiled_partition<Width>(cg::this_thread_block());
    float v = in[threadIdx.x];
    if (v > 0.0f) {
        v = tile_total(tile, v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// Look-alike: every lane of the tile runs the helper.
template <int Width>
__global__ void tile_total_every_lane(const float *in, float *out) {
    auto tile = cg::tiled_partition<Width>(cg::this_thread_block());
    out[threadIdx.x] = tile_total(tile, in[threadIdx.x]);
}

void launch_tile_totals(const float *in, float *out) {
    tile_total_positive<16><<<4, 64>>>(in, out);
    tile_total_every_lane<16><<<4, 64>>>(in, out);
}

// Hands out one slot per active lane: the group's first lane reserves
// them all, the others read the base back.
__device__ int reserve_slots(const cg::coalesced_group &g, int *counter) {
    int base = 0;
    if (g.thread_rank() == 0) {
        base = atomicAdd(counter, static_cast<int>(g.size()));
    }
    return g.shfl(base, 0) + static_cast<int>(g.thread_rank());
}

// The group is formed before the branch: it names every lane of the
// warp, but only the lanes with work reach the helper's shuffle.
__global__ void reserve_formed_early(const int *work, int *counter, int *slot) {
    cg::coalesced_group active = cg::coalesced_threads();
    int s = -1;
    if (work[threadIdx.x] > 0) {
        s = reserve_slots(active, counter); // expect: WL002
    }
    slot[threadIdx.x] = s;
}

// Look-alike: formed inside the branch, the group is the lanes there.
__global__ void reserve_formed_inside(const int *work, int *counter, int *slot) {
    int s = -1;
    if (work[threadIdx.x] > 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        s = reserve_slots(active, counter);
    }
    slot[threadIdx.x] = s;
}

template <class Group>
__device__ int leader_value(const Group &g, int v) {
    return g.shfl(v, 0);
}

// The same through a template helper.
__global__ void leader_formed_early(const int *in, int *out) {
    auto active = cg::coalesced_threads();
    int v = in[threadIdx.x];
    if (v > 0) {
        v = leader_value(active, v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// Look-alike: formed inside the branch.
__global__ void leader_formed_inside(const int *in, int *out) {
    int v = in[threadIdx.x];
    if (v > 0) {
        auto active = cg::coalesced_threads();
        v = leader_value(active, v);
    }
    out[threadIdx.x] = v;
}

// A generic lambda given the warp's tile, from only the positive lanes.
__global__ void lambda_warp_total_positive(const float *in, float *out) {
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    auto total = [](auto g, float x) {
        for (int step = 16; step > 0; step /= 2) {
            x += g.shfl_xor(x, step);
        }
        return x;
    };
    float v = in[threadIdx.x];
    if (v > 0.0f) {
        v = total(warp, v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// Look-alike: every lane calls the lambda; a generic lambda given plain
// numbers is no group's.
__global__ void lambda_warp_total_every_lane(const float *in, float *out) {
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    auto total = [](auto g, float x) {
        for (int step = 16; step > 0; step /= 2) {
            x += g.shfl_xor(x, step);
        }
        return x;
    };
    auto twice = [](auto a) { return a + a; };
    float v = in[threadIdx.x];
    if (v > 0.0f) {
        v = twice(v);
    }
    out[threadIdx.x] = total(warp, v);
}
