// Warp collectives written in inline PTX are the intrinsics they stand
// for: `shfl.sync.down.b32 d|p, a, b, c, m;` waits for every lane of `m`
// as `__shfl_down_sync(m, a, b)` does, `redux.sync.add.u32` as
// `__reduce_add_sync`, `vote.sync.ballot.b32` as `__ballot_sync`, and
// `elect.sync d|p, m;` (sm_90) elects one lane of `m` after every lane of
// `m` has arrived. A full mask there, in code only some lanes reach, names
// lanes that never come.
// strict: WL002

__device__ __forceinline__ unsigned warp_sum_ptx(unsigned v) {
    // The whole warp sums through five predicated down-shuffles.
    asm volatile("{ .reg .pred p; .reg .b32 t; shfl.sync.down.b32 t|p, %0, 16, 31, 0xffffffff; @p add.u32 %0, %0, t; }" : "+r"(v));
    asm volatile("{ .reg .pred p; .reg .b32 t; shfl.sync.down.b32 t|p, %0, 8, 31, 0xffffffff; @p add.u32 %0, %0, t; }" : "+r"(v));
    asm volatile("{ .reg .pred p; .reg .b32 t; shfl.sync.down.b32 t|p, %0, 4, 31, 0xffffffff; @p add.u32 %0, %0, t; }" : "+r"(v));
    asm volatile("{ .reg .pred p; .reg .b32 t; shfl.sync.down.b32 t|p, %0, 2, 31, 0xffffffff; @p add.u32 %0, %0, t; }" : "+r"(v));
    asm volatile("{ .reg .pred p; .reg .b32 t; shfl.sync.down.b32 t|p, %0, 1, 31, 0xffffffff; @p add.u32 %0, %0, t; }" : "+r"(v));
    return v;
}

__device__ __forceinline__ unsigned warp_total(unsigned v) {
    unsigned total;
    asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(total) : "r"(v));
    return total;
}

__device__ __forceinline__ unsigned elect_leader() {
    unsigned leader = 0;
    asm volatile(
        "{\n"
        ".reg .pred %%px;\n"
        "elect.sync _|%%px, %1;\n"
        "@%%px mov.u32 %0, 1;\n"
        "}\n"
        : "+r"(leader)
        : "r"(0xffffffff));
    return leader;
}

// Lanes whose value is zero skip the warp sum; the others wait for them
// at a full-mask PTX shuffle.
__global__ void sum_nonzero_ptx(const unsigned *in, unsigned *out) {
    unsigned v = in[blockIdx.x * 32 + threadIdx.x];
    if (v != 0) {
        v = warp_sum_ptx(v); // expect: WL002
    }
    out[blockIdx.x * 32 + threadIdx.x] = v;
}

// The low half of each warp takes a PTX warp total.
__global__ void half_warp_redux(const unsigned *in, unsigned *out) {
    unsigned v = in[threadIdx.x];
    if ((threadIdx.x & 31) < 16) {
        unsigned total;
        asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(total) : "r"(v)); // expect: WL002
        out[threadIdx.x] = total;
    }
}

// One thread per warp was meant to issue the copy, but the helper it calls
// elects a leader among all 32 lanes: the other 31 never arrive.
__global__ void issue_from_lane_zero(unsigned *flags) {
    if ((threadIdx.x & 31) == 0) {
        if (elect_leader()) { // expect: WL002
            flags[threadIdx.x / 32] = 1;
        }
    }
}

// Look-alike: the whole warp elects its leader, and only the leader
// writes.
__global__ void issue_from_elected(unsigned *flags) {
    if (elect_leader()) {
        flags[threadIdx.x / 32] = 1;
    }
}

// Look-alike: whole warps choose their role (the block is whole warps),
// and the warp that sums reaches every shuffle together.
__global__ void __launch_bounds__(128) producer_warp_sums(const unsigned *in, unsigned *out) {
    unsigned v = in[blockIdx.x * 128 + threadIdx.x];
    if (threadIdx.x / 32 == 0) {
        v = warp_sum_ptx(v);
        unsigned all = warp_total(v);
        if (threadIdx.x == 0) {
            out[blockIdx.x] = all;
        }
    }
}

// Look-alike: the mask is the ballot of the lanes that enter the branch.
__global__ void ballot_masked_redux(const unsigned *in, unsigned *out) {
    unsigned v = in[threadIdx.x];
    unsigned mask = __ballot_sync(0xffffffff, v > 4);
    if (v > 4) {
        unsigned total;
        asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(total) : "r"(v), "r"(mask));
        out[threadIdx.x] = total;
    }
}

// Look-alike: generated code pairs warps and guards on the row a lane
// holds within the pair. `(warp & 1) * 32 + lane` is below 64 in every
// lane, so the guard never splits a warp.
__global__ void paired_rows_ptx(const float *in, float *out) {
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    unsigned warp = threadIdx.x / 32;
    unsigned row = (warp & 1) * 32 + lane;
    float v = in[threadIdx.x];
    if (row < 64) {
        float w;
        asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=f"(w) : "f"(v));
        v += w;
    }
    out[threadIdx.x] = v;
}

// The same pairing with half-warp rows: in odd warps, lanes 16-31 hold
// rows 32-47 and fail `row < 32`.
__global__ void paired_half_rows_ptx(const float *in, float *out) {
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    unsigned warp = threadIdx.x / 32;
    unsigned row = (warp & 1) * 16 + lane;
    float v = in[threadIdx.x];
    if (row < 32) {
        float w;
        asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=f"(w) : "f"(v)); // expect: WL002
        v += w;
    }
    out[threadIdx.x] = v;
}

void launch_ballot_masked_redux(const unsigned *in, unsigned *out, const float *f, float *g) {
    ballot_masked_redux<<<4, 128>>>(in, out);
    paired_rows_ptx<<<4, 128>>>(f, g);
    paired_half_rows_ptx<<<4, 128>>>(f, g);
}
