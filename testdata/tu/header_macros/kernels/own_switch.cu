// A file that tests the configuration header's switch itself: the
// header defines it for this toolkit, so the `_sync` branch is analysed.
#include <shufkit/config.cuh>

__global__ void first_lane_value(int *data) {
    int v = data[threadIdx.x];
    if (threadIdx.x % 32 < 8) {
#if defined(SHUFKIT_HAS_SYNC)
        v = __shfl_sync(SHUFKIT_FULL, v, 0); // expect: WL002
#else
        v = __shfl(v, 0);
#endif
    }
    data[threadIdx.x] = v;
}
