// What inline PTX writes is as uniform as what it computes it from. A local
// only an `asm` statement writes is not left at its declaration's level.
// strict: WL002

// A load in PTX at each lane's own shared slot: its value may differ
// between lanes, so a full-mask shuffle under it is reached by only some.
__global__ void flag_from_shared_ptx(float *out) {
    __shared__ int flags[256];
    flags[threadIdx.x] = threadIdx.x & 3;
    __syncthreads();
    unsigned int addr = (unsigned int)__cvta_generic_to_shared(&flags[threadIdx.x]);
    int f;
    asm volatile("ld.shared.b32 %0, [%1];" : "=r"(f) : "r"(addr));
    float v = out[threadIdx.x];
    if (f != 0) {
        v += __shfl_down_sync(0xffffffffu, v, 1); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// Arithmetic in PTX on the thread index: lane-dependent like its input.
__global__ void offset_lane_in_ptx(float *out) {
    int k;
    asm("add.s32 %0, %1, 1;" : "=r"(k) : "r"((int)threadIdx.x));
    float v = out[threadIdx.x];
    if (k % 32 < 16) {
        v += __shfl_xor_sync(0xffffffffu, v, 8); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// Look-alike: a per-block length loaded with PTX at a uniform address.
// Every lane reads the same value, so the loop keeps each warp together.
__global__ void rows_of_ptx_length(const int *lengths, const float *in, float *out) {
    unsigned int n;
    asm volatile("ld.global.nc.b32 %0, [%1];" : "=r"(n) : "l"(lengths + blockIdx.x));
    float acc = 0.f;
    for (unsigned int i = 0; i < n; ++i) {
        float v = in[blockIdx.x * 4096 + i * 32 + threadIdx.x % 32];
        acc += __shfl_xor_sync(0xffffffffu, v, 1);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Look-alike: PTX arithmetic on a kernel argument is the same in every
// thread, so the barrier in the loop it bounds is reached by all.
__global__ void tiles_of_ptx_rounding(const float *in, float *out, float scale) {
    __shared__ float tile[128];
    int tiles;
    asm("cvt.rni.s32.f32 %0, %1;" : "=r"(tiles) : "f"(scale));
    for (int t = 0; t < tiles; ++t) {
        tile[threadIdx.x] = in[t * 128 + threadIdx.x];
        __syncthreads();
        out[t * 128 + threadIdx.x] = tile[127 - threadIdx.x];
        __syncthreads();
    }
}

// Look-alike: a warp reduction written in PTX gives every lane of the warp
// the same sum, so the loop it bounds keeps the warp together.
__global__ void chunks_of_ptx_warp_sum(const unsigned int *counts, const float *in, float *out) {
    unsigned int total;
    asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(total) : "r"(counts[threadIdx.x]));
    float acc = 0.f;
    for (unsigned int c = 0; c < total; ++c) {
        acc += __shfl_xor_sync(0xffffffffu, in[c * 32 + threadIdx.x % 32], 16);
    }
    out[threadIdx.x] = acc;
}

// Look-alike: the block's rank in its cluster, read from its special
// register, is the same in every thread of the block.
__global__ void leader_block_of_cluster(float *out) {
    unsigned int rank;
    asm volatile("mov.b32 %0, %%cluster_ctarank;" : "=r"(rank));
    float v = out[threadIdx.x];
    if (rank == 0) {
        v += __shfl_xor_sync(0xffffffffu, v, 16);
    }
    out[threadIdx.x] = v;
}

void launch(const int *l, const float *a, float *b, float s) {
    flag_from_shared_ptx<<<1, 256>>>(b);
    offset_lane_in_ptx<<<1, 128>>>(b);
    rows_of_ptx_length<<<8, 128>>>(l, a, b);
    tiles_of_ptx_rounding<<<1, 128>>>(a, b, s);
    chunks_of_ptx_warp_sum<<<1, 128>>>((const unsigned int *)l, a, b);
    leader_block_of_cluster<<<2, 128>>>(b);
}
