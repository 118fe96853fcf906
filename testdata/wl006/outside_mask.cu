// Source lanes and calling lanes outside the mask.
#define LOW_HALF 0x0000ffffu

__global__ void everyone_low_mask(const int *in, int *out) {
    int v = in[threadIdx.x];
    out[threadIdx.x] = __shfl_sync(LOW_HALF, v, 0); // expect: WL006
}

__global__ void source_in_high_half(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    if (lane < 16) {
        out[threadIdx.x] = __shfl_sync(LOW_HALF, v, 20); // expect: WL006
    }
}

__global__ void syncwarp_without_lane0(int *data) {
    data[threadIdx.x] += 1;
    __syncwarp(0xfffffffe); // expect: WL006
    data[threadIdx.x] += data[(threadIdx.x + 1) % 32];
}

void launch(const int *a, int *b) {
    everyone_low_mask<<<1, 32>>>(a, b);
    source_in_high_half<<<1, 32>>>(a, b);
    syncwarp_without_lane0<<<1, 32>>>(b);
}
