// Xor butterflies written as loops leave one value in every lane: a
// branch on the result keeps the warp together, and a full-mask primitive
// under it is fine. llama.cpp's `warp_reduce_all` loops this way over a
// template width (a confirmed false WL007 on held-out code). The
// look-alikes stop short of all five offsets, shuffle down (only lane 0
// gets the total) or narrow the width, and do split the warp.
// strict: WL002

#define WARP_LANES 32

// The default width is a macro: the call without template arguments runs
// the 32-lane instance.
template <int width = WARP_LANES>
__device__ int all_lanes_agree(int x) {
#pragma unroll
    for (int offset = width / 2; offset > 0; offset >>= 1) {
        x = __shfl_xor_sync(0xffffffff, x, offset, width) && x;
    }
    return x;
}

__device__ float butterfly_sum(float v) {
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

__global__ void __launch_bounds__(128) agree_then_sync(const int *in, int *out) {
    const int ok = all_lanes_agree(in[threadIdx.x]);
    if (ok) {
        __syncwarp();
        out[threadIdx.x] = 1;
    }
}

__global__ void __launch_bounds__(128) sum_then_sync(const float *in, float *out) {
    if (butterfly_sum(in[threadIdx.x]) > 0.0f) {
        __syncwarp();
        out[threadIdx.x] = 1.0f;
    }
}

__global__ void __launch_bounds__(128) ascending_then_sync(const unsigned *in, unsigned *out) {
    unsigned bits = in[threadIdx.x];
    for (int o = 1; o < 32; o <<= 1) bits |= __shfl_xor_sync(0xffffffff, bits, o);
    if (bits & 1u) {
        __syncwarp();
        out[threadIdx.x] = bits;
    }
}

// Offsets 8, 4, 2, 1: each half of the warp has its own sum.
__global__ void __launch_bounds__(128) half_sum_then_sync(const float *in, float *out) {
    float v = threadIdx.x % 32 < 16 ? -in[0] - 1.0f : 1.0f;
    for (int o = 8; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    if (v > 0.0f) {
        __syncwarp(); // expect: WL002
        out[threadIdx.x] = v;
    }
}

// Shuffling down leaves the total in lane 0 only.
__global__ void __launch_bounds__(128) down_sum_then_sync(const float *in, float *out) {
    float v = in[threadIdx.x];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
    if (v > 0.0f) {
        __syncwarp(); // expect: WL002
        out[threadIdx.x] = v;
    }
}

// A width of 16: two groups, two values.
__global__ void __launch_bounds__(128) narrow_agree_then_sync(const int *in, int *out) {
    const int ok = all_lanes_agree<16>(threadIdx.x % 32 < 16 && in[0] >= 0);
    if (ok) {
        __syncwarp(); // expect: WL002
        out[threadIdx.x] = 1;
    }
}
