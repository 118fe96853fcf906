// PTX named barriers with a thread count (`bar.sync id, count`). The warps
// that take part are the code's choice: a producer warp group may skip a
// barrier its consumers share. But each thread waits there for every
// thread of its own warp that has not exited (PTX ISA, `barrier`), so the
// lanes of one warp must arrive together. On an H200 a warp whose low half
// waited at `bar.sync 1, 64` while its high half waited for them hung
// (`testdata/hardware/named_barrier_half_warp.cu`), and compute-sanitizer's
// synccheck reports a `bar.sync` that a warp reaches split over two sites.
// strict: WL007

__device__ __forceinline__ void group_sync(int id, int threads) {
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

__device__ __forceinline__ void group_arrive(int id, int threads) {
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// Threads past the valid count skip the exchange; where the count is not
// a multiple of 32, one warp arrives split (WL007), and where it is below
// 97, fewer than the 128 threads the barrier counts ever arrive (WL009).
__global__ void __launch_bounds__(128) stage_valid_rows(const float *in, float *out, int valid) {
    __shared__ float rows[128];
    int t = threadIdx.x;
    if (t < valid) {
        rows[t] = in[blockIdx.x * 128 + t];
        asm volatile("bar.sync 1, 128;" ::: "memory"); // expect: WL007, WL009
        out[blockIdx.x * 128 + t] = rows[127 - t];
    }
}

// The low half of each warp hands a row over through a wrapper; the high
// half waits elsewhere.
__global__ void __launch_bounds__(64) half_warp_handoff(const int *in, int *out) {
    __shared__ int stage[64];
    int t = threadIdx.x;
    stage[t] = in[t];
    if ((t & 31) < 16) {
        group_sync(1, 64); // expect: WL007
        out[t] = stage[(t + 32) % 64];
    } else {
        out[t] = stage[t];
    }
}

// `bar.sync` is aligned: every thread of a warp must execute the same
// instruction, so meeting it from two arms is undefined.
__global__ void __launch_bounds__(64) split_arms_aligned(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = 3 * t;
    if ((t & 31) < 16) {
        asm volatile("bar.sync 2, 64;" ::: "memory"); // expect: WL007
        out[t] = s[(t + 32) % 64];
    } else {
        asm volatile("bar.sync 2, 64;" ::: "memory"); // expect: WL007
        out[t] = s[(t + 32) % 64];
    }
}

// Look-alike: warp-specialized roles. Warps 0-1 produce and arrive, warps
// 2-3 consume and wait; the role is the same in every lane of a warp.
__global__ void __launch_bounds__(128) producer_consumer_roles(const float *in, float *out) {
    __shared__ float tile[64];
    int t = threadIdx.x;
    int warp = t / 32;
    if (warp < 2) {
        tile[t] = in[blockIdx.x * 64 + t] * 2.0f;
        group_arrive(3, 128);
    } else {
        group_sync(3, 128);
        out[blockIdx.x * 64 + t - 64] = tile[t - 64];
    }
}

// Look-alike: only warps 0-3 of an 8-warp block take part, whole warps.
__global__ void __launch_bounds__(256) first_four_warps(const int *in, int *out) {
    __shared__ int s[128];
    int t = threadIdx.x;
    if (t < 128) {
        s[t] = in[t];
        asm volatile("bar.sync 4, 128;" ::: "memory");
        out[t] = s[127 - t];
    }
}

// Look-alike: `barrier.sync` (not aligned) met from both arms of a lane
// branch; the lanes of the warp do arrive together.
__global__ void __launch_bounds__(64) split_arms_unaligned(int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = 3 * t;
    if ((t & 31) < 16) {
        asm volatile("barrier.sync 5, 64;" ::: "memory");
        out[t] = s[(t + 32) % 64] + 1;
    } else {
        asm volatile("barrier.sync 5, 64;" ::: "memory");
        out[t] = s[(t + 32) % 64];
    }
}

// Look-alike: the high lanes returned from the kernel; a named barrier
// waits for no exited thread.
__global__ void __launch_bounds__(64) low_lanes_after_exit(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    if ((t & 31) >= 16) {
        out[t] = in[t];
        return;
    }
    s[t] = in[t] * 2;
    asm volatile("bar.sync 6, 64;" ::: "memory");
    out[t] = s[(t + 32) % 64];
}
