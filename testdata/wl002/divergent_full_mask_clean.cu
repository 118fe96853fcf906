// Clean look-alikes of divergent_full_mask.cu.
#define FULL_MASK 0xffffffffu

// The mask is the ballot of the branch condition, taken before the branch.
__global__ void tail_sum(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned mask = __ballot_sync(FULL_MASK, i < n);
    if (i < n) {
        float v = in[i];
        for (int offset = 16; offset > 0; offset /= 2) {
            float other = __shfl_down_sync(mask, v, offset);
            if ((threadIdx.x & 31) + offset < 32 && (mask >> ((threadIdx.x & 31) + offset) & 1)) v += other;
        }
        if ((threadIdx.x & 31) == 0) out[blockIdx.x] = v;
    }
}

// Both arms call the same primitive with the same full mask: every lane
// arrives, from two call sites. Legal on Volta and later.
__global__ void both_arms(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    if (lane & 1) {
        v = __shfl_sync(FULL_MASK, v + 1, 0);
    } else {
        v = __shfl_sync(FULL_MASK, v - 1, 0);
    }
    out[threadIdx.x] = v;
}

// A branch on the warp index is uniform within each warp.
__global__ void warp_uniform(const float *in, float *out) {
    float v = in[threadIdx.x];
    if (threadIdx.x < 32) {
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_xor_sync(FULL_MASK, v, offset);
    }
    int warp = threadIdx.x / 32;
    if (warp == 1) {
        v = __shfl_sync(FULL_MASK, v, 0);
    }
    out[threadIdx.x] = v;
}

// A constant mask equal to the lanes that get there.
__global__ void even_lanes(const int *in, int *out) {
    int lane = threadIdx.x & 31;
    int v = in[threadIdx.x];
    if ((lane & 1) == 0) {
        v += __shfl_xor_sync(0x55555555u, v, 2);
    }
    out[threadIdx.x] = v;
}

void launch(const float *a, float *b, const int *c, int *d) {
    tail_sum<<<1, 32>>>(a, b, 20);
    both_arms<<<1, 32>>>(c, d);
    warp_uniform<<<1, 64>>>(a, b);
    even_lanes<<<1, 32>>>(c, d);
}
