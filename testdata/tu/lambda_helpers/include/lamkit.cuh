// Warp helpers that keep their reduction in a local lambda.
#pragma once

// Sums over the lanes below `n`, but the lambda's shuffles name all 32:
// a caller passing less than 32 leaves lanes out.
__device__ inline float sum_below(float v, int n) {
    auto reduce = [&](float x) {
        for (int o = 16; o > 0; o >>= 1)
            x += __shfl_xor_sync(0xffffffffu, x, o);
        return x;
    };
    if (threadIdx.x % 32 < n)
        v = reduce(v); // expect: WL002
    return v;
}

// Every lane that enters runs the lambda.
__device__ inline float warp_sum(float v) {
    auto reduce = [&](float x) {
        for (int o = 16; o > 0; o >>= 1)
            x += __shfl_xor_sync(0xffffffffu, x, o);
        return x;
    };
    return reduce(v);
}
