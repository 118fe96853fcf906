// Generated-kernel style: the step count is a macro the build defines
// (`-DSTEPS=…`) and this configuration leaves undefined. A name nothing in
// view declares has one value for the whole run, like a template value:
// a run takes it past every lane's step (the loop runs), and every lane of
// the warp calls the shuffle whose mask leaves lanes 16-31 out.

__global__ __launch_bounds__(64) void stepped_pair_sums(const float *in, float *out) {
    float acc = 0.f;
    for (int t = 0; t < STEPS; ++t) {
        acc += in[t * 64 + threadIdx.x];
        acc += __shfl_xor_sync(0x0000ffffu, acc, 1); // expect: WL006
    }
    out[threadIdx.x] = acc;
}

// Look-alike: only the lower half-warp, which the mask names, calls it.
__global__ __launch_bounds__(64) void stepped_low_half_sums(const float *in, float *out) {
    int lane = threadIdx.x % 32;
    float acc = 0.f;
    for (int t = 0; t < STEPS; ++t) {
        acc += in[t * 64 + threadIdx.x];
        if (lane < 16) {
            acc += __shfl_xor_sync(0x0000ffffu, acc, 1);
        }
    }
    out[threadIdx.x] = acc;
}
