// Arrays each thread declares for itself hold what the thread stored in
// them: an element set from the lane is lane-dependent, one set from the
// block index is the same in every thread.

__global__ void slot_from_lane(float *out) {
    int slot[2];
    slot[1] = threadIdx.x % 32;
    float v = out[threadIdx.x];
    if (slot[1] < 16) {
        v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// Look-alike: the bounds array holds block-uniform values, so the loop
// around the barrier runs the same count in every thread.
__global__ void tiles_between_bounds(const float *in, float *out, const int *starts) {
    __shared__ float tile[128];
    int bounds[2];
    bounds[0] = starts[blockIdx.x];
    bounds[1] = starts[blockIdx.x + 1];
    for (int t = bounds[0]; t < bounds[1]; ++t) {
        tile[threadIdx.x] = in[t * 128 + threadIdx.x];
        __syncthreads();
        out[t * 128 + threadIdx.x] = tile[(threadIdx.x + 1) % 128];
        __syncthreads();
    }
}

void launch(float *o, const float *a, const int *s) {
    slot_from_lane<<<1, 64>>>(o);
    tiles_between_bounds<<<4, 128>>>(a, o, s);
}
