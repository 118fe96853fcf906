// The warp index computed from a thread-index variable, as generated
// kernels write it: `tid / 32` is the same for all lanes of a warp, so a
// branch on it keeps warps whole and the full mask is right.
__global__ void per_warp_roles(float *data) {
    const int tid = threadIdx.x;
    const int warp = tid / 32;
    float v = data[tid];
    if (warp == 0) {
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_xor_sync(0xffffffff, v, o);
    }
    data[tid] = v;
}

// The look-alike: `tid / 16` names half-warps, and a branch on it splits
// each warp in two.
__global__ void per_half_warp_roles(float *data) {
    const int tid = threadIdx.x;
    const int half = tid / 16;
    float v = data[tid];
    if (half == 0) {
        for (int o = 8; o > 0; o >>= 1)
            v += __shfl_xor_sync(0xffffffff, v, o); // expect: WL002
    }
    data[tid] = v;
}
