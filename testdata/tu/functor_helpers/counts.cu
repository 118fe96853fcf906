// Kernels applying the header's function objects.
// strict: WL002
#include "warp_ops.cuh"

// The lower half-warp runs a whole-warp sum through the helper.
__global__ void half_counts(int *x) {
    x[threadIdx.x] = in_low_half(x[threadIdx.x], LaneSum());
}

// The object called by name under a lane test.
__global__ void odd_lane_counts(int *x) {
    LaneSum total;
    int v = x[threadIdx.x];
    if (threadIdx.x & 1)
        v = total(v); // expect: WL002
    x[threadIdx.x] = v;
}

// Look-alike: the helper with an object that has no warp primitive.
__global__ void half_doubles(int *x) {
    x[threadIdx.x] = in_low_half(x[threadIdx.x], Doubler());
}

// Look-alike: every lane calls the object.
__global__ void all_counts(int *x) {
    LaneSum total;
    x[threadIdx.x] = total(x[threadIdx.x]);
}

void launch_counts(int *x) {
    half_counts<<<2, 64>>>(x);
    odd_lane_counts<<<2, 64>>>(x);
    half_doubles<<<2, 64>>>(x);
    all_counts<<<2, 64>>>(x);
}
