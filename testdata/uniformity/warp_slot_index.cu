// `warp * 32 + lane`, with `warp` the same for the whole warp (here from
// an inline-PTX broadcast helper), numbers the threads so that each warp's
// 32 lanes are one aligned block of 32 slots: a bound that is a multiple
// of 32 keeps or drops whole warps (clean). A stride other than 32, or a
// bound that is not a multiple of 32, cuts a warp in two (findings).

__device__ __forceinline__ int to_warp_uniform(int x) {
    int r;
    asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;" : "=r"(r) : "r"(x));
    return r;
}

__global__ void __launch_bounds__(256) slot_roles(const int *in, int *out) {
    const int warp = to_warp_uniform(threadIdx.x / 32);
    const int lane = threadIdx.x % 32;
    if (warp >= 4) {
        const int slot = (warp - 4) * 32 + lane;
        if (slot < 64) {
            out[slot] = __ballot_sync(0xffffffff, in[slot] > 0);
        }
        int upper = slot + 96;
        if (upper < 128) {
            out[upper] = __ballot_sync(0xffffffff, in[upper] > 0);
        }
    }
    int t = (warp * 32 + lane) % 64;
    if (t < 32) {
        out[threadIdx.x] = __shfl_xor_sync(0xffffffff, in[threadIdx.x], 1);
    }
}

__global__ void __launch_bounds__(256) slot_cuts_warps(const int *in, int *out) {
    const int warp = to_warp_uniform(threadIdx.x / 32);
    const int lane = threadIdx.x % 32;
    const int half_slot = warp * 16 + lane;
    if (half_slot < 64) {
        out[half_slot] = __ballot_sync(0xffffffff, in[half_slot] > 0); // expect: WL002
    }
    const int slot = warp * 32 + lane;
    if (slot < 40) {
        out[slot] = __ballot_sync(0xffffffff, in[slot] > 0); // expect: WL002
    }
}
