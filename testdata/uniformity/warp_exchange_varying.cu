// Look-alikes of warp_exchange_uniform.cu whose results still differ
// between lanes: a butterfly that skips an offset, one whose combine is
// not commutative, one on a partial mask, broadcasts within 16-lane
// segments (as `__shfl_sync` width and as the PTX segment mask), and a
// PTX broadcast from a per-lane source. Each branch splits the warp.

__device__ __forceinline__ int from_segment_start(int x) {
    int r;
    asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x101f, 0xffffffff;" : "=r"(r) : "r"(x));
    return r;
}

__device__ __forceinline__ int from_lane(int x, int src) {
    int r;
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(x), "r"(src));
    return r;
}

__global__ void butterfly_skips_one(const int *in, int *out) {
    int s = threadIdx.x & 31; // even lanes end with 240, odd with 256
    s = s + __shfl_xor_sync(0xffffffff, s, 16);
    s = s + __shfl_xor_sync(0xffffffff, s, 8);
    s = s + __shfl_xor_sync(0xffffffff, s, 4);
    s = s + __shfl_xor_sync(0xffffffff, s, 2);
    if (s > 250) {
        out[threadIdx.x] = __shfl_down_sync(0xffffffff, in[threadIdx.x], 1); // expect: WL002
    }
}

__global__ void butterfly_subtracts(const int *in, int *out) {
    int s = in[threadIdx.x];
    s = s - __shfl_xor_sync(0xffffffff, s, 16);
    s = s - __shfl_xor_sync(0xffffffff, s, 8);
    s = s - __shfl_xor_sync(0xffffffff, s, 4);
    s = s - __shfl_xor_sync(0xffffffff, s, 2);
    s = s - __shfl_xor_sync(0xffffffff, s, 1);
    if (s > 0) {
        out[threadIdx.x] = __shfl_down_sync(0xffffffff, in[threadIdx.x], 1); // expect: WL002
    }
}

__global__ void butterfly_in_halves(const int *in, int *out) {
    int s = threadIdx.x & 31; // lanes 0-15 end with 240, 16-31 with 752
    s = s + __shfl_xor_sync(0xffffffff, s, 8, 16);
    s = s + __shfl_xor_sync(0xffffffff, s, 4, 16);
    s = s + __shfl_xor_sync(0xffffffff, s, 2, 16);
    s = s + __shfl_xor_sync(0xffffffff, s, 1, 16);
    s = s + __shfl_xor_sync(0xffffffff, s, 16, 16);
    if (s > 500) {
        out[threadIdx.x] = __shfl_down_sync(0xffffffff, in[threadIdx.x], 1); // expect: WL002
    }
}

__global__ void broadcast_per_segment(const int *in, int *out) {
    int v = in[threadIdx.x];
    int first = __shfl_sync(0xffffffff, v, 0, 16);
    if (first > 5) {
        out[threadIdx.x] = __shfl_xor_sync(0xffffffff, v, 1); // expect: WL002
    }
}

__global__ void ptx_broadcast_per_segment(const int *in, int *out) {
    if (from_segment_start(in[threadIdx.x]) > 5) {
        out[threadIdx.x] = __shfl_xor_sync(0xffffffff, in[threadIdx.x], 1); // expect: WL002
    }
}

__global__ void ptx_broadcast_from_own_lane(const int *in, int *out) {
    if (from_lane(in[threadIdx.x], threadIdx.x & 31) > 5) {
        out[threadIdx.x] = __shfl_xor_sync(0xffffffff, in[threadIdx.x], 1); // expect: WL002
    }
}
