// Group masks one slot too wide: the mask names the lanes of the next slot
// too, whose branch may go the other way. Each must still be reported.

__global__ void __launch_bounds__(128) slot_norm_wide(const float *x, float *y, int n_heads) {
    int t = threadIdx.x;
    int slot = t / 8;
    int within = t % 8;
    // Sixteen lanes: this slot and the next.
    unsigned slot_mask = 0xffffu << ((t & 31) - within);
    float v = x[t];
    if (slot < n_heads) {
        float s = v * v;
        s += __shfl_xor_sync(slot_mask, s, 4); // expect: WL002
        v *= rsqrtf(s);
    }
    y[t] = v;
}

// Seventeen lanes for a sixteen-lane branch.
constexpr int kPicks = 16;
__global__ void __launch_bounds__(256) first_picks_wide(const int *sel, int *out) {
    int t = threadIdx.x;
    int warp = t >> 5;
    int lane = t & 31;
    if (warp == 0 && lane < kPicks) {
        int b = sel[lane];
        unsigned peers = __match_any_sync(0x0001ffffu, b); // expect: WL002
        out[lane] = __popc(peers);
    }
}

// A ballot of a wider condition than the branch's.
template <int TOP_K>
__global__ void __launch_bounds__(32) ballot_wider_than_branch(const int *experts, int *first) {
    int lane = threadIdx.x;
    unsigned topk = __ballot_sync(0xffffffff, lane < TOP_K);
    if (lane < TOP_K / 2) {
        int e = experts[lane];
        unsigned same = __match_any_sync(topk, e); // expect: WL002
        first[lane] = lane == __ffs(same) - 1;
    }
}

template __global__ void ballot_wider_than_branch<8>(const int *, int *);

// The same loop with a whole-warp mask: the two halves stop at different
// times, and the full mask waits for the half that has left.
__global__ void __launch_bounds__(64) split_merge_full(const float *x, float *y, int splits) {
    int t = threadIdx.x;
    int sg = t >> 4;
    float acc = 0.f;
    for (int s = sg; s < splits; s += 4) {
        float v = x[s * 64 + t];
        acc += __shfl_sync(0xffffffff, v, 0, 16); // expect: WL002
    }
    y[t] = acc;
}

// The helper's shuffles name lanes 0-3, but only lanes 0-1 call it.
constexpr int kQuad = 4;
__device__ float quad_sum(float v) {
    constexpr unsigned kQuadMask = (1u << kQuad) - 1;
    v += __shfl_xor_sync(kQuadMask, v, 1);
    v += __shfl_xor_sync(kQuadMask, v, 2);
    return v;
}

__global__ void __launch_bounds__(128) half_quad_metadata(const float *x, float *y) {
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (warp == 0 && lane < kQuad / 2) {
        y[lane] = quad_sum(x[lane]); // expect: WL002
    }
}
