// Lambdas passed to a device function that calls them: what reaches the
// function's call of its parameter reaches the lambda's warp code.

template <typename F>
__device__ void for_all(F body) {
    body(threadIdx.x);
}

template <typename F>
__device__ void for_low_half(F body) {
    if (threadIdx.x % 32 < 16)
        body(threadIdx.x); // expect: WL002, WL007
}

template <typename F>
__device__ void give(F body, int k) {
    body(k);
}

// Every lane runs the whole-warp sum: clean.
__global__ void sum_all(float *out) {
    float scale = out[0];
    for_all([&](int i) {
        float v = out[i] * scale;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, o);
        out[i] = v;
    });
}

// Only the low half of each warp runs it.
__global__ void sum_low_half(float *out) {
    for_low_half([&](int i) {
        float v = out[i];
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, o);
        out[i] = v;
    });
}

// A block barrier in a lambda the low half runs.
__global__ void stage_low_half(float *out) {
    __shared__ float tile[256];
    auto stage = [&](int i) {
        tile[i] = out[i];
        __syncthreads();
        out[i] = tile[255 - i];
    };
    for_low_half(stage);
}

// The lambda sets the bound through the helper; the caller reads it after.
__global__ void bound_through_helper(float *out) {
    float v = out[threadIdx.x];
    int active = 0;
    give([&](int k) { active = k; }, 16);
    if (threadIdx.x % 32 < active)
        v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
    out[threadIdx.x] = v;
}

// The same with the whole warp's bound: every lane takes the branch.
__global__ void whole_bound_through_helper(float *out) {
    float v = out[threadIdx.x];
    int active = 0;
    give([&](int k) { active = k; }, 32);
    if (threadIdx.x % 32 < active)
        v += __shfl_xor_sync(0xffffffffu, v, 1);
    out[threadIdx.x] = v;
}
