// strict: WL002, WL005
// The unit that instantiates the library's steps with its policies.
#include "../include/policies.cuh"
#include "../include/steps.cuh"

// The header's shuffle runs with a width of 24 here (reported there).
__global__ void quarter_segments(float *out) {
    out[threadIdx.x] = segment_broadcast<lib::QuarterWarp>(out[threadIdx.x]);
}

// Look-alike: the whole warp as one segment.
__global__ void whole_segments(float *out) {
    out[threadIdx.x] = segment_broadcast<lib::WholeWarp>(out[threadIdx.x]);
}

void run_steps(float *out, int blocks) {
    keep_step<lib::QuarterWarp><<<blocks, 128>>>(out);
    keep_step_all<lib::WholeWarp><<<blocks, 128>>>(out);
    quarter_segments<<<blocks, 128>>>(out);
    whole_segments<<<blocks, 128>>>(out);
}
