// Legitimate uses of __activemask(): opportunistic grouping and logging.
#include <cstdio>

// Warp-aggregated atomics: whichever lanes are together share one atomic.
__global__ void aggregated_increment(int *counter, int *slots, const int *keys) {
    int key = keys[threadIdx.x];
    unsigned group = __match_any_sync(__activemask(), key);
    int leader = __ffs(group) - 1;
    int lane = threadIdx.x & 31;
    int base = 0;
    if (lane == leader) base = atomicAdd(&counter[key], __popc(group));
    base = __shfl_sync(group, base, leader);
    unsigned lower = group & ((1u << lane) - 1);
    slots[threadIdx.x] = base + __popc(lower);
}

// Logging only: the value never becomes a mask.
__global__ void log_convergence(const int *in, int *out, int n) {
    int i = threadIdx.x;
    if (i < n) {
        unsigned active = __activemask();
        if (i == 0) printf("converged lanes: %08x\n", active);
        out[i] = in[i] * 2;
    }
}

// The mask comes from a ballot, not from __activemask().
__global__ void ballot_sum(const int *in, int *out, int n) {
    int i = threadIdx.x;
    unsigned mask = __ballot_sync(0xffffffff, i < n);
    if (i < n) {
        int total = __reduce_add_sync(mask, in[i]);
        if (i == 0) out[0] = total;
    }
}

void launch(int *a, int *b, const int *c) {
    aggregated_increment<<<1, 32>>>(a, b, c);
    log_convergence<<<1, 32>>>(c, a, 20);
    ballot_sum<<<1, 32>>>(c, a, 20);
}
