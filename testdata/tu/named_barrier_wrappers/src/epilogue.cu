// Epilogues that stage accumulators through shared memory between the
// four math warps (barrier 1, 128 threads) while warp 4 loads.

#include <pipekit/barrier.cuh>

// Only the lanes holding a valid column stage it and wait: the math warps
// arrive split wherever the column count is not a multiple of 32.
__global__ void __launch_bounds__(160) stage_columns(const float *acc, float *out, int columns) {
    __shared__ float staged[128];
    int t = threadIdx.x;
    if (t < 128) {
        int column = t % 32;
        if (column < columns) {
            staged[t] = acc[blockIdx.x * 128 + t];
            pipekit::NamedBarrier::sync(128, 1); // expect: WL007
            out[blockIdx.x * 128 + t] = staged[t ^ 32];
        }
    }
}

// Look-alike: whole warps choose their role; the loader warp only arrives.
__global__ void __launch_bounds__(160) stage_by_role(const float *acc, float *out) {
    __shared__ float staged[128];
    int t = threadIdx.x;
    int warp = t / 32;
    if (warp < 4) {
        staged[t] = acc[blockIdx.x * 128 + t];
        pipekit::NamedBarrier::sync(160, 1);
        out[blockIdx.x * 128 + t] = staged[t ^ 32];
    } else {
        pipekit::NamedBarrier::arrive(160, 1);
    }
}
