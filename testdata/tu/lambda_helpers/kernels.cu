// Callers of lamkit.cuh's helpers.
#include "include/lamkit.cuh"

// Passes 32: every lane reduces.
__global__ void whole_warp(float *p) {
    p[threadIdx.x] = sum_below(p[threadIdx.x], 32);
}

// Passes 16: lanes 16-31 skip the reduction that names them.
__global__ void half_warp(float *p) {
    p[threadIdx.x] = sum_below(p[threadIdx.x], 16);
}

// The whole-warp helper, entered only by the threads below `n`.
__global__ void guarded(float *p, int n) {
    if (threadIdx.x < n)
        p[threadIdx.x] = warp_sum(p[threadIdx.x]); // expect: WL002
}

// Every thread enters it: clean.
__global__ void unguarded(float *p) {
    p[threadIdx.x] = warp_sum(p[threadIdx.x]);
}

void launch(float *p, int n) {
    whole_warp<<<1, 32>>>(p);
    half_warp<<<1, 32>>>(p);
    guarded<<<1, 32>>>(p, n);
    unguarded<<<1, 32>>>(p);
}
