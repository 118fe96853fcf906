// strict: WL002, WL005
// Kernel and helper templates over a policy class. Which policy a launch
// or call names is decided by the unit that uses them (src/run_steps.cu),
// which also includes the policies.
#pragma once

// Launched with lib::QuarterWarp: lanes 8-31 skip a shuffle naming them.
template <class Policy>
__global__ void keep_step(float *out) {
    float v = out[threadIdx.x];
    if ((threadIdx.x & 31) < Policy::kLanes) {
        v = __shfl_down_sync(0xffffffffu, v, 1); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// Look-alike: launched with lib::WholeWarp only, every lane passes.
template <class Policy>
__global__ void keep_step_all(float *out) {
    float v = out[threadIdx.x];
    if ((threadIdx.x & 31) < Policy::kLanes) {
        v = __shfl_down_sync(0xffffffffu, v, 1);
    }
    out[threadIdx.x] = v;
}

// The segment width is the policy's: 24 for the quarter-warp policy that
// src/run_steps.cu calls it with, 32 for the whole-warp one.
template <class Policy>
__device__ float segment_broadcast(float v) {
    return __shfl_sync(0xffffffffu, v, 0, Policy::kSegment); // expect: WL005
}
