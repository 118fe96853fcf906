// strict: WL002 WL007
#include <groupkit/collectives.cuh>

// The 8-thread tiles' maximum, from only the lanes under the cap: a tile
// with a lane over it shuffles with a lane that is not there.
__global__ void tile_peaks_under_cap(const float *in, float *out, float cap) {
    auto tile = cg::tiled_partition<8>(cg::this_thread_block());
    float v = in[threadIdx.x];
    if (v < cap) {
        v = groupkit::group_max(tile, v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// Look-alike: every lane takes part, a lane over the cap brings the cap.
__global__ void tile_peaks_capped(const float *in, float *out, float cap) {
    auto tile = cg::tiled_partition<8>(cg::this_thread_block());
    float v = in[threadIdx.x];
    out[threadIdx.x] = groupkit::group_max(tile, fminf(v, cap));
}
