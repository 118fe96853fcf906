// Loops whose trip count is the same for every lane (clean), next to
// look-alikes whose trip count depends on the lane (findings).

// A bound passed to the kernel is the same for every thread.
__global__ void rows_of_uniform_length(const float *in, float *out, int rows) {
    float acc = in[threadIdx.x];
    for (int r = 0; r < rows; ++r) {
        acc += __shfl_xor_sync(0xffffffffu, acc, 1);
    }
    out[threadIdx.x] = acc;
}

// Tiles walked by a block-uniform base; the lane offset is added inside.
__global__ void tiles_by_uniform_base(const float *in, float *out, int n) {
    for (int base = blockIdx.x * blockDim.x; base < n; base += blockDim.x * gridDim.x) {
        int i = base + threadIdx.x;
        float v = i < n ? in[i] : 0.0f;
        v += __shfl_down_sync(0xffffffffu, v, 1);
        if (i < n) out[i] = v;
    }
}

// Look-alike: the per-thread index is the loop variable, so in the last
// round only the lanes with `i < n` are still inside.
__global__ void per_thread_grid_stride(const float *in, float *out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = in[i];
        v += __shfl_down_sync(0xffffffffu, v, 1); // expect: WL002
        out[i] = v;
    }
}

// Spins until a vote says every lane is done: the break is warp-uniform.
__global__ void spin_until_all_done(int *work) {
    int left = work[threadIdx.x];
    do {
        left = left > 0 ? left - 1 : 0;
        int others = __shfl_xor_sync(0xffffffffu, left, 16);
        left = left > others ? left : others;
        if (__all_sync(0xffffffffu, left == 0)) break;
    } while (1);
    work[threadIdx.x] = left;
}

// Look-alike: each lane breaks on its own value.
__global__ void spin_until_own_done(int *work) {
    int left = work[threadIdx.x];
    do {
        left = left - 1;
        int others = __shfl_xor_sync(0xffffffffu, left, 16); // expect: WL002
        if (left + others <= 0) break;
    } while (1);
    work[threadIdx.x] = left;
}
