// A lambda that calls another lambda of the same function (captured by
// reference or by value), as kernels written with small local helpers do:
// the inner lambda's warp code runs wherever the outer one calls it.
// strict: WL002

// The outer lambda calls the warp-wide sum only in its odd lanes.
__global__ void odd_lanes_sum_inside_lambda(float *out) {
    float v = out[threadIdx.x];
    auto warp_sum = [](float x) {
        for (int o = 16; o > 0; o >>= 1)
            x += __shfl_xor_sync(0xffffffffu, x, o);
        return x;
    };
    auto combine = [&](float x) {
        if (threadIdx.x & 1)
            x = warp_sum(x); // expect: WL002
        return x;
    };
    out[threadIdx.x] = combine(v);
}

// Look-alike: the outer lambda calls it in every lane, and every lane
// calls the outer lambda.
__global__ void all_lanes_sum_inside_lambda(float *out) {
    float v = out[threadIdx.x];
    auto warp_sum = [](float x) {
        for (int o = 16; o > 0; o >>= 1)
            x += __shfl_xor_sync(0xffffffffu, x, o);
        return x;
    };
    auto combine = [=](float x) { return warp_sum(x) * 0.5f; };
    out[threadIdx.x] = combine(v);
}

// Two levels: the broadcast is reached through a lambda inside a lambda,
// under a lane test of the outermost one.
__global__ void broadcast_two_levels_down(int *out) {
    int v = out[threadIdx.x];
    auto from_leader = [](int x) { return __shfl_sync(0xffffffffu, x, 0); };
    auto refresh = [&](int x) {
        auto again = [&](int y) { return from_leader(y) + 1; };
        return again(x);
    };
    if (threadIdx.x % 32 < 20)
        v = refresh(v); // expect: WL002
    out[threadIdx.x] = v;
}

// Look-alike: a parameter of the outer lambda has the inner lambda's
// name, so the call inside names the parameter, a plain function object
// passed in (here a function that is no warp code).
struct Twice {
    __device__ int operator()(int x) const { return 2 * x; }
};
__global__ void parameter_hides_captured_lambda(int *out) {
    int v = out[threadIdx.x];
    auto from_leader = [](int x) { return __shfl_sync(0xffffffffu, x, 0); };
    auto apply = [&](int x, Twice from_leader) {
        if (threadIdx.x & 1)
            x = from_leader(x);
        return x;
    };
    out[threadIdx.x] = apply(v, Twice()) + from_leader(v);
}
