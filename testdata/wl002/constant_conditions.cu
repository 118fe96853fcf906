// Branches on compile-time constants: the arm the constant rules out never
// runs, so a full-mask shuffle there names no lane that fails to arrive.
// The arm it selects is checked as code every lane reaches.
// strict: WL002

constexpr bool kTraceExchange = false;
constexpr int kExchangeRounds = 2;
constexpr int kSpread = 1;

// The lane-dependent shuffle sits behind a constant that is false.
__global__ void traced_exchange(float *out) {
    float v = out[threadIdx.x];
    if (kTraceExchange && threadIdx.x % 32 < 8)
        v += __shfl_down_sync(0xffffffffu, v, 1);
    out[threadIdx.x] = v;
}

// Same shape, the constant is true: lanes 8-31 never arrive.
__global__ void counted_exchange(float *out) {
    float v = out[threadIdx.x];
    if (kExchangeRounds > 1 && threadIdx.x % 32 < 8)
        v += __shfl_down_sync(0xffffffffu, v, 1); // expect: WL002
    out[threadIdx.x] = v;
}

// A local of the same name as a file constant is not that constant: here
// it differs per lane.
__global__ void shadowed_constant(float *out) {
    int kSpread = threadIdx.x & 1;
    float v = out[threadIdx.x];
    if (kSpread)
        v += __shfl_xor_sync(0xffffffffu, v, 2); // expect: WL002
    out[threadIdx.x] = v;
}

// A template flag bound by the launch: the instance with the flag off
// never shuffles inside the divergent branch.
template <bool kPartial>
__global__ void flagged_exchange(float *out) {
    float v = out[threadIdx.x];
    if (threadIdx.x % 32 < 16) {
        if (kPartial)
            v += __shfl_down_sync(0xffffffffu, v, 1);
    }
    out[threadIdx.x] = v;
}

void launch_flagged(float *out) { flagged_exchange<false><<<4, 128>>>(out); }
