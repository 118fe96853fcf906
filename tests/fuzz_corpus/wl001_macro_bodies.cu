// Warp calls hidden in macros: the body is checked, the use site is not a
// second finding.
#define WARP_BALLOT(p) __ballot(p) // expect: WL001
#define WARP_SHFL_DOWN(v, d) \
    __shfl_down((v), (d)) // expect: WL001

// Modern macros are fine.
#define WARP_SUM_STEP(v, d) ((v) + __shfl_down_sync(0xffffffffu, (v), (d)))

__global__ void count_positive(const float *x, unsigned *out) {
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned votes = WARP_BALLOT(v > 0.0f);
    float s = WARP_SHFL_DOWN(v, 1);
    s = WARP_SUM_STEP(s, 2);
    if ((threadIdx.x & 31) == 0) out[blockIdx.x] = votes + (unsigned)s;
}
