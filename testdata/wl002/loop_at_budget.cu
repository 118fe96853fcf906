// A helper whose loop stops on its own after exactly 64 trips (the
// executor's default iteration budget) does not leave the run unfinished:
// a correct ballot mask after it is refuted, not reported as undecided.
__device__ int digit_sum_rounds(int x) {
    int acc = 0;
    for (int round = 0; round < 64; ++round) {
        acc += x % 10;
        x = x / 10 + round;
    }
    return acc;
}

// Clean: the mask is the ballot of the guard, taken before the branch.
__global__ void weighted_ballot(const int *keys, int *sums, int cut) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int k = keys[t];
    int w = digit_sum_rounds(k);
    unsigned picked = __ballot_sync(0xffffffff, k > cut);
    if (k > cut) {
        sums[t] = __reduce_add_sync(picked, w);
    }
}

// Look-alike: the full mask names lanes that skip the branch.
__global__ void weighted_full(const int *keys, int *sums, int cut) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int k = keys[t];
    int w = digit_sum_rounds(k);
    if (k > cut) {
        sums[t] = __reduce_add_sync(0xffffffff, w); // expect: WL002
    }
}
