// A library switch the configuration cannot decide (MYLIB_SYNC_WARP_OPS is
// set by the build system): the rule for unknowns takes the `#else`, but its
// sibling calls the `_sync` form of the same primitive, so this is a
// portability dispatch, not legacy code the CUDA build compiles.
__device__ float tile_total(float v) {
#if MYLIB_SYNC_WARP_OPS
    for (int d = 16; d >= 1; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
#else
    for (int d = 16; d >= 1; d /= 2) v += __shfl_down(v, d);
#endif
    return v;
}

// Look-alike: the sibling branch uses a different `_sync` primitive, so the
// legacy vote is not a dispatch of it and is still reported.
__device__ unsigned lanes_voting(int flag) {
#if MYLIB_SYNC_WARP_OPS
    unsigned held = __activemask();
    return held & (flag ? 1u : 0u) ? __shfl_sync(held, 1u, 0) : 0u;
#else
    return __ballot(flag); // expect: WL001
#endif
}

// Look-alike: the configuration decides this condition (a CUDA 12 device
// pass for sm_70), so the legacy branch *is* compiled and reported even
// though its sibling has the `_sync` form.
__device__ int first_lane_value(int x) {
#if __CUDA_ARCH__ >= 700
    return __shfl(x, 0); // expect: WL001
#else
    return __shfl_sync(0xffffffffu, x, 0);
#endif
}

// The same switch tested with `#ifdef` and `defined()`: a name the file
// never defines may come from a header or the build (`#define
// MYLIB_HAS_SYNC` under a toolkit check in a config header), so "not
// defined" is the rule for unknowns too, and this is a dispatch.
__device__ float row_total(float v) {
#ifdef MYLIB_HAS_SYNC
    for (int d = 16; d >= 1; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
#else
    for (int d = 16; d >= 1; d /= 2) v += __shfl_xor(v, d);
#endif
    return v;
}

__device__ float col_total(float v) {
#if defined(MYLIB_HAS_SYNC) && !defined(MYLIB_FORCE_LEGACY)
    return v + __shfl_up_sync(0xffffffffu, v, 1);
#else
    return v + __shfl_up(v, 1);
#endif
}

// Look-alike: the file itself undefines the switch, so the configuration
// knows the legacy branch is compiled.
#undef MYLIB_NO_SYNC_OPS_YET
__device__ float diag_total(float v) {
#ifdef MYLIB_NO_SYNC_OPS_YET
    return v + __shfl_down_sync(0xffffffffu, v, 1);
#else
    return v + __shfl_down(v, 1); // expect: WL001
#endif
}

__global__ void use_all(float *f, unsigned *u, int *i) {
    f[threadIdx.x] = tile_total(f[threadIdx.x]);
    u[threadIdx.x] = lanes_voting(i[threadIdx.x] > 0);
    i[threadIdx.x] = first_lane_value(i[threadIdx.x]);
    f[threadIdx.x] = row_total(f[threadIdx.x]) + col_total(f[threadIdx.x]);
    f[threadIdx.x] += diag_total(f[threadIdx.x]);
}
