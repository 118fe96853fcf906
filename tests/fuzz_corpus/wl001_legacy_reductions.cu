// Legacy maskless warp primitives in a pre-Volta style reduction library.
#include <cuda_runtime.h>

#define FULL_WARP 32

__device__ float warp_reduce_sum(float v) {
    for (int offset = FULL_WARP / 2; offset > 0; offset >>= 1) {
        v += __shfl_down(v, offset); // expect: WL001
    }
    return v;
}

__device__ int warp_broadcast(int v, int src) {
    return __shfl(v, src); // expect: WL001
}

template <typename T>
__device__ T butterfly_max(T v) {
    for (int mask = 16; mask > 0; mask /= 2) {
        // expect-next-line: WL001
        T other = __shfl_xor(v, mask);
        v = other > v ? other : v;
    }
    return v;
}

__device__ int inclusive_scan(int v, int lane) {
    for (int d = 1; d < 32; d *= 2) {
        int up = __shfl_up(v, d); // expect: WL001
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void vote_kernel(const int *flags, unsigned *ballots, int *any, int *all) {
    int pred = flags[threadIdx.x] != 0;
    unsigned b = __ballot(pred); // expect: WL001
    // Two calls on one line: both reported.
    int a = __any(pred), e = ::__all(pred); // expect: WL001, WL001
    if ((threadIdx.x & 31) == 0) {
        ballots[threadIdx.x / 32] = b;
        any[threadIdx.x / 32] = a;
        all[threadIdx.x / 32] = e;
    }
}
