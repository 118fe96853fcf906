// strict: WL002
// Look-alikes that stay clean: each mask names, lane by lane, exactly the
// lanes that reach its call. Whole warps are stated by the launches at the
// end of the file (a __launch_bounds__ alone is a maximum, not a shape, so
// without them these are undecided, shape-dependent, and hidden).

// Eight-lane slots: a lane's mask is the eight lanes of its own slot, and
// the branch depends on the slot only, so a slot takes it whole.
__global__ void __launch_bounds__(128) slot_norm(const float *x, float *y, int n_heads) {
    int t = threadIdx.x;
    int slot = t / 8;
    int within = t % 8;
    unsigned slot_mask = 0xffu << ((t & 31) - within);
    float v = x[t];
    bool head = slot < n_heads;
    if (head || slot == 9) {
        float s = v * v;
        s += __shfl_xor_sync(slot_mask, s, 4);
        s += __shfl_xor_sync(slot_mask, s, 2);
        s += __shfl_xor_sync(slot_mask, s, 1);
        v *= rsqrtf(s);
    }
    y[t] = v;
}

// Sixteen-lane halves selected with a shift: `t >> 4` is the half.
__global__ void half_warp_merge(const float *x, float *y, int splits) {
    int t = threadIdx.x;
    int half = (t >> 4) & 1;
    unsigned half_mask = ((1u << 16) - 1) << (half * 16);
    float v = x[t];
    if ((t >> 4) < splits) {
        v += __shfl_down_sync(half_mask, v, 8, 16);
    }
    y[t] = v;
}

void launch_half(const float *x, float *y, int splits) {
    half_warp_merge<<<4, 64>>>(x, y, splits);
}

// The first sixteen lanes of warp 0, and a constant sixteen-lane mask.
constexpr int kPicks = 16;
__global__ void __launch_bounds__(256) first_picks(const int *sel, int *out) {
    int t = threadIdx.x;
    int warp = t >> 5;
    int lane = t & 31;
    if (warp == 0 && lane < kPicks) {
        int b = sel[lane];
        unsigned peers = __match_any_sync(0x0000ffffu, b);
        out[lane] = __popc(peers);
    }
}

// A ballot of the branch's own condition, taken before the branch.
template <int TOP_K>
__global__ void __launch_bounds__(32) ballot_then_branch(const int *experts, int *first) {
    int lane = threadIdx.x;
    unsigned topk = __ballot_sync(0xffffffff, lane < TOP_K);
    if (lane < TOP_K) {
        int e = experts[lane];
        unsigned same = __match_any_sync(topk, e);
        first[lane] = lane == __ffs(same) - 1;
    }
}

// A counted loop per sixteen-lane subgroup: both halves of a warp start at
// different splits, so they loop a different number of times, but each
// mask names only its own half.
__global__ void __launch_bounds__(64) split_merge(const float *x, float *y, int splits) {
    int t = threadIdx.x;
    int sg = t >> 4;
    unsigned sub_mask = 0x0000ffffu << (16 * (sg & 1));
    float acc = 0.f;
    for (int s = sg; s < splits; s += 4) {
        float v = x[s * 64 + t];
        acc += __shfl_sync(sub_mask, v, 0, 16);
    }
    y[t] = acc;
}

// A helper whose shuffles name lanes 0-3, called by exactly those lanes.
constexpr int kQuad = 4;
__device__ float quad_sum(float v) {
    constexpr unsigned kQuadMask = (1u << kQuad) - 1;
    v += __shfl_xor_sync(kQuadMask, v, 1);
    v += __shfl_xor_sync(kQuadMask, v, 2);
    return v;
}

__global__ void __launch_bounds__(128) quad_metadata(const float *x, float *y) {
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (warp == 0 && lane < kQuad) {
        y[lane] = quad_sum(x[lane]);
    }
}

void launch_all(const float *x, float *y, const int *sel, int *out, int n_heads, int splits) {
    slot_norm<<<8, 128>>>(x, y, n_heads);
    first_picks<<<1, 256>>>(sel, out);
    ballot_then_branch<8><<<1, 32>>>(sel, out);
    split_merge<<<4, 64>>>(x, y, splits);
    quad_metadata<<<1, 128>>>(x, y);
}
