// strict: WL005
// Kernel templates of a library header; which instances exist is decided
// by the unit that lists them (instances.cu), not here.
#pragma once

template <int SEGMENT>
__global__ void segment_broadcast(float *out) {
    float v = out[threadIdx.x];
    // Listed at 24 in instances.cu: not a power of two.
    out[threadIdx.x] = __shfl_sync(0xffffffffu, v, 0, SEGMENT); // expect: WL005
}

template <int SEGMENT>
__global__ void segment_rotate(float *out) {
    float v = out[threadIdx.x];
    // Look-alike: listed at 4 and 16 only.
    out[threadIdx.x] = __shfl_down_sync(0xffffffffu, v, 1, SEGMENT);
}
