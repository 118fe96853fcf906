// A function-like macro that expands to an `if` header, written before the
// block it governs: `IF_LANE(0) { … }`. The parser reads the use as a call
// missing its `;` and the block as a statement of its own; the block is
// analysed under the expanded header, as the compiler runs it, not as code
// every lane runs.
// strict: WL002

#define FULL_MASK 0xffffffffu
#define IF_LANE(k) if ((threadIdx.x & 31) == (k))
#define IF_WARP(w) if ((threadIdx.x >> 5) == (w))

// One lane broadcasts with a full mask.
__global__ void first_lane_broadcast(float *x) {
    float v = x[threadIdx.x];
    IF_LANE(0) {
        v = __shfl_sync(FULL_MASK, v, 0); // expect: WL002
    }
    x[threadIdx.x] = v;
}

// Look-alike: a whole warp takes the branch.
__global__ void first_warp_broadcast(float *x) {
    float v = x[threadIdx.x];
    IF_WARP(0) {
        v = __shfl_sync(FULL_MASK, v, 0);
    }
    x[threadIdx.x] = v;
}

void launch_broadcasts(float *x) {
    first_lane_broadcast<<<1, 64>>>(x);
    first_warp_broadcast<<<1, 64>>>(x);
}
