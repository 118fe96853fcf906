// `NV_IF_TARGET` from <nv/target>: the device pass keeps the arm for the
// device (or for a new-enough architecture) as a block; the host arm is not
// device code and is not analysed.

__global__ void guarded_spread(const int *src, int *dst) {
    int lane = threadIdx.x % 32;
    int v = src[threadIdx.x];
    if (lane < 8) {
        NV_IF_TARGET(NV_IS_DEVICE,
                     (v = __shfl_sync(0xffffffff, v, 0);), // expect: WL002
                     (v = __shfl_sync(0xffffffff, v, 1);));
    }
    dst[threadIdx.x] = v;
}

__global__ void host_arm_only(const int *src, int *dst) {
    int lane = threadIdx.x % 32;
    int v = src[threadIdx.x];
    if (lane == 5) {
        NV_IF_TARGET(NV_IS_HOST, (v = __shfl_sync(0xffffffff, v, 2);));
    }
    dst[threadIdx.x] = v;
}

__global__ void by_architecture(const float *src, float *dst) {
    float x = src[threadIdx.x];
    if (threadIdx.x % 32 != 0) {
        NV_DISPATCH_TARGET(
            NV_PROVIDES_SM_60, (x += __shfl_down_sync(0xffffffffu, x, 4);), // expect: WL002
            NV_IS_DEVICE, (x += __shfl_down_sync(0xffffffffu, x, 8);));
    }
    dst[threadIdx.x] = x;
}

void launch(const int *a, int *b, const float *c, float *d) {
    guarded_spread<<<1, 32>>>(a, b);
    host_arm_only<<<1, 32>>>(a, b);
    by_architecture<<<1, 32>>>(c, d);
}
