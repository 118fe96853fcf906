// Look-alike of nv_if_target.cu: the shuffles in the device arms run on the
// whole warp, so nothing is reported.

__global__ void whole_warp_spread(const int *src, int *dst) {
    int v = src[threadIdx.x];
    NV_IF_TARGET(NV_IS_DEVICE,
                 (v = __shfl_sync(0xffffffff, v, 0);),
                 (v = v + 1;));
    dst[threadIdx.x] = v;
}

__global__ void whole_warp_by_architecture(const float *src, float *dst) {
    float x = src[threadIdx.x];
    NV_DISPATCH_TARGET(
        NV_PROVIDES_SM_60, (x += __shfl_down_sync(0xffffffffu, x, 4);),
        NV_IS_DEVICE, (x += __shfl_down_sync(0xffffffffu, x, 8);));
    dst[threadIdx.x] = x;
}

void launch(const int *a, int *b, const float *c, float *d) {
    whole_warp_spread<<<1, 32>>>(a, b);
    whole_warp_by_architecture<<<1, 32>>>(c, d);
}
