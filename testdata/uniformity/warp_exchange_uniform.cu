// Values every lane holds equally after a warp exchange: a full xor
// butterfly with a commutative combine, a broadcast from one lane over the
// whole warp (also written as inline PTX, as `make_warp_uniform` helpers
// do), and `__match_all_sync`. Branching on them keeps the warp together:
// clean. warp_exchange_varying.cu holds the look-alikes that are not.

__device__ __forceinline__ int to_warp_uniform(int x) {
    int r;
    asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;" : "=r"(r) : "r"(x));
    return r;
}

// One level up: a helper that returns another helper's broadcast.
__device__ int role_of(int row) { return to_warp_uniform(row / 2); }

__global__ void butterfly_sum(const int *in, int *out) {
    int s = in[threadIdx.x];
    s = s + __shfl_xor_sync(0xffffffff, s, 16);
    s = s + __shfl_xor_sync(0xffffffff, s, 8);
    s = s + __shfl_xor_sync(0xffffffff, s, 4);
    s = s + __shfl_xor_sync(0xffffffff, s, 2);
    s = s + __shfl_xor_sync(0xffffffff, s, 1);
    if (s > 100) {
        out[threadIdx.x] = __shfl_down_sync(0xffffffff, in[threadIdx.x], 1);
    }
}

__global__ void butterfly_max_through_copies(const unsigned *in, unsigned *out) {
    unsigned best = in[threadIdx.x];
    unsigned t0 = __shfl_xor_sync(0xffffffff, best, 1);
    unsigned o0 = t0;
    unsigned m0 = best > o0 ? best : o0;
    best = m0;
    unsigned t1 = __shfl_xor_sync(0xffffffff, best, 2);
    best = best > t1 ? best : t1;
    unsigned t2 = __shfl_xor_sync(0xffffffff, best, 4);
    best = max(best, t2);
    unsigned t3 = __shfl_xor_sync(0xffffffff, best, 8);
    best = best > t3 ? best : t3;
    unsigned t4 = __shfl_xor_sync(0xffffffff, best, 16);
    best = t4 > best ? t4 : best;
    while (best > 3) {
        best = __shfl_sync(0xffffffff, best / 2, 0);
    }
    out[threadIdx.x] = best;
}

__global__ void __launch_bounds__(256) roles_from_ptx_broadcast(const int *in, int *out) {
    const int warp_z = to_warp_uniform(threadIdx.z);
    if (warp_z == 1) {
        out[threadIdx.x] = __shfl_xor_sync(0xffffffff, in[threadIdx.x], 1);
    }
    if (role_of(threadIdx.y) == 0) {
        __syncwarp();
    }
}

__global__ void broadcast_then_branch(const int *in, int *out) {
    int v = in[threadIdx.x];
    int first = __shfl_sync(0xffffffff, v, 0, 32);
    if (first > 5) {
        out[threadIdx.x] = __shfl_xor_sync(0xffffffff, v, 1);
    }
}

__global__ void match_all_then_branch(const int *keys, int *out) {
    int pred;
    unsigned same = __match_all_sync(0xffffffff, keys[threadIdx.x], &pred);
    if (same != 0) {
        out[threadIdx.x] = __shfl_xor_sync(0xffffffff, keys[threadIdx.x], 1);
    }
}
