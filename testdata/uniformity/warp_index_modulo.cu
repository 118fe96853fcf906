// strict: WL002, WL007
// Generated kernels fold the block into groups with a modulo before they
// take the warp index: `(tid % 256) / 32`, `(tid & 255) >> 5`. Reducing
// the thread index modulo a multiple of 32 keeps each warp's 32 lanes
// together, so those indices are the same across a warp and the branches
// on them are warp-uniform. A modulus that is not a multiple of 32 (48)
// cuts a warp in two: the look-alike's full mask names lanes that skip it.
__global__ void grouped_roles(const float *in, float *out) {
    int tid = threadIdx.x;
    int group_tid = tid % 256;
    int group_warp = group_tid / 32;
    float v = in[tid];
    if (group_warp == 0) {
        v += __shfl_xor_sync(0xffffffff, v, 1);
    }
    int masked_warp = (tid & 255) >> 5;
    if (masked_warp == 1) {
        v += __shfl_down_sync(0xffffffff, v, 2);
    }
    out[tid] = v;
}

__global__ void grouped_roles_odd_modulus(const float *in, float *out) {
    int tid = threadIdx.x;
    int group_tid = tid % 48;
    int group_warp = group_tid / 32;
    float v = in[tid];
    if (group_warp == 0) {
        v += __shfl_xor_sync(0xffffffff, v, 1); // expect: WL002
    }
    out[tid] = v;
}
