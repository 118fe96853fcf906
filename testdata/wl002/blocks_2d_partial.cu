// 2-D blocks and partial warps: warp membership follows the linear index.
template <int TILE>
__global__ void rows_16_wide(const float *in, float *out) {
    // blockDim.x = 16: each warp holds two rows, so `threadIdx.x < 8`
    // splits every warp.
    float v = in[threadIdx.y * TILE + threadIdx.x];
    if (threadIdx.x < 8) {
        v += __shfl_down_sync(0xffffffff, v, 4); // expect: WL002
    }
    out[threadIdx.y * TILE + threadIdx.x] = v;
}

template <int TILE>
__global__ void rows_by_y(const float *in, float *out) {
    // With 32-wide rows, a branch on threadIdx.y is uniform per warp.
    float v = in[threadIdx.y * TILE + threadIdx.x];
    if (threadIdx.y == 1) {
        v += __shfl_down_sync(0xffffffff, v, 4);
    }
    out[threadIdx.y * TILE + threadIdx.x] = v;
}

__global__ void partial_warp_sum(const int *in, int *out) {
    // Launched with 48 threads: warp 1 has only lanes 0-15, and a full mask
    // names sixteen lanes that do not exist. Here the branch excludes
    // existing lanes as well.
    int t = threadIdx.x;
    if (t % 32 < 12) {
        int v = __reduce_add_sync(0xffffffff, in[t]); // expect: WL002
        out[t] = v;
    }
}

__global__ void partial_warp_ok(const int *in, int *out) {
    int t = threadIdx.x;
    unsigned mask = __ballot_sync(0xffffffff, true);
    out[t] = __reduce_add_sync(mask, in[t]);
}

void launch(const float *a, float *b, const int *c, int *d) {
    dim3 block16(16, 8);
    rows_16_wide<16><<<1, block16>>>(a, b);
    rows_by_y<32><<<1, dim3(32, 4)>>>(a, b);
    partial_warp_sum<<<1, 48>>>(c, d);
    partial_warp_ok<<<1, 48>>>(c, d);
}
