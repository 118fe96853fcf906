// Lambdas called through a local variable, or where they are written, run
// in the calling code: what reaches the call reaches their warp code.

// A whole-warp sum in a lambda, called by the lanes below `n` only.
__global__ void sum_called_by_some(float *out, int n) {
    float v = out[threadIdx.x];
    auto warp_sum = [=](float x) {
        for (int o = 16; o > 0; o >>= 1)
            x += __shfl_xor_sync(0xffffffffu, x, o);
        return x;
    };
    if (threadIdx.x < n)
        v = warp_sum(v); // expect: WL002
    out[threadIdx.x] = v;
}

// The same lambda called by every lane: clean.
__global__ void sum_called_by_all(float *out) {
    float v = out[threadIdx.x];
    auto warp_sum = [=](float x) {
        for (int o = 16; o > 0; o >>= 1)
            x += __shfl_xor_sync(0xffffffffu, x, o);
        return x;
    };
    v = warp_sum(v);
    out[threadIdx.x] = v;
}

// Called where it is written, under a lane test.
__global__ void inline_lambda_under_guard(float *out) {
    float v = out[threadIdx.x];
    if (threadIdx.x % 32 < 8)
        v = [&](float x) { // expect: WL002
            return x + __shfl_down_sync(0xffffffffu, x, 4);
        }(v);
    out[threadIdx.x] = v;
}

// A block barrier in a lambda: only threads below `n` call it.
__global__ void staged_copy_some(const float *in, float *out, int n) {
    __shared__ float tile[256];
    auto stage = [&](int i) {
        tile[i] = in[i];
        __syncthreads();
        out[i] = tile[255 - i];
    };
    if (threadIdx.x < n)
        stage(threadIdx.x); // expect: WL007
}

// Every thread calls it; the guard is inside, around the work only: clean.
__global__ void staged_copy_all(const float *in, float *out, int n) {
    __shared__ float tile[256];
    auto stage = [&](int i) {
        if (i < n)
            tile[i] = in[i];
        __syncthreads();
        if (i < n)
            out[i] = tile[255 - i];
    };
    stage(threadIdx.x);
}

// A lambda capturing by reference sets the bound the guard then reads.
__global__ void bound_set_by_lambda(float *out) {
    float v = out[threadIdx.x];
    int active = 0;
    auto set_active = [&](int k) { active = k; };
    set_active(16);
    if (threadIdx.x % 32 < active)
        v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
    out[threadIdx.x] = v;
}

// Lanes exchange through a shared array the lambda captures, with no
// `__syncwarp()` between one lane's write and another's read.
__global__ void captured_exchange_racy(float *out) {
    __shared__ float buf[32];
    int lane = threadIdx.x % 32;
    buf[lane] = out[threadIdx.x];
    __syncwarp();
    auto step = [&](int o) {
        buf[lane] += buf[lane ^ o]; // expect: WL004
    };
    for (int o = 16; o > 0; o >>= 1)
        step(o);
    out[threadIdx.x] = buf[lane];
}

// The same exchange in phases: read, `__syncwarp()`, write, `__syncwarp()`.
__global__ void captured_exchange_phased(float *out) {
    __shared__ float buf[32];
    int lane = threadIdx.x % 32;
    buf[lane] = out[threadIdx.x];
    __syncwarp();
    auto step = [&](int o) {
        float other = buf[lane ^ o];
        __syncwarp();
        buf[lane] += other;
        __syncwarp();
    };
    for (int o = 16; o > 0; o >>= 1)
        step(o);
    out[threadIdx.x] = buf[lane];
}
