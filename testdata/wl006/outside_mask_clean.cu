// Partial masks used correctly.
__global__ void low_half(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    if (lane < 16) {
        out[threadIdx.x] = __shfl_sync(0x0000ffffu, v, 3);
    } else {
        out[threadIdx.x] = __shfl_sync(0xffff0000u, v, 19);
    }
}

// Width 16 segments: source lane 3 of each half is in each half's mask.
__global__ void halves_with_width(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    unsigned mask = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    out[threadIdx.x] = __shfl_sync(mask, v, 3, 16);
}

void launch(const int *a, int *b) {
    low_half<<<1, 32>>>(a, b);
    halves_with_width<<<1, 32>>>(a, b);
}
