// Transposes staged by four math warps while a fifth warp prefetches, the
// library's reserved transpose barrier between the stores and the loads.

#include <pipekit/barrier.cuh>

using pipekit::NamedBarrier;
using pipekit::ReservedBarrier;

// The math warps count the prefetch warp too (160 threads), but it never
// arrives: the barrier never completes.
__global__ void __launch_bounds__(160) transpose_staged_tiles(const float *in, float *out) {
    __shared__ float tile[32][33];
    int t = threadIdx.x;
    int warp = t / 32, lane = t % 32;
    if (warp < 4) {
        for (int r = warp; r < 32; r += 4) tile[r][lane] = in[blockIdx.x * 1024 + r * 32 + lane];
        NamedBarrier::sync(160, ReservedBarrier::Transpose); // expect: WL009
        for (int r = warp; r < 32; r += 4) out[blockIdx.x * 1024 + r * 32 + lane] = tile[lane][r];
    } else {
        __nanosleep(100);
    }
}

// Look-alike: the prefetch warp arrives, so 160 threads make up the count.
__global__ void __launch_bounds__(160) transpose_staged_tiles_counted(const float *in, float *out) {
    __shared__ float tile[32][33];
    int t = threadIdx.x;
    int warp = t / 32, lane = t % 32;
    if (warp < 4) {
        for (int r = warp; r < 32; r += 4) tile[r][lane] = in[blockIdx.x * 1024 + r * 32 + lane];
        NamedBarrier::sync(160, ReservedBarrier::Transpose);
        for (int r = warp; r < 32; r += 4) out[blockIdx.x * 1024 + r * 32 + lane] = tile[lane][r];
    } else {
        NamedBarrier::arrive(160, ReservedBarrier::Transpose);
    }
}
