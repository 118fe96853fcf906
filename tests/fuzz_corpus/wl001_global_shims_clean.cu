// A global compatibility shim that redefines the legacy names with masks.
// Calls to the shim are calls to these functions, not to the removed
// intrinsics, so they are not findings.
__device__ __forceinline__ unsigned __ballot(int pred) {
    return __ballot_sync(0xffffffffu, pred);
}

#define __any(p) __any_sync(0xffffffffu, (p))

__global__ void uses_shims(const int *x, unsigned *out) {
    int p = x[threadIdx.x] > 0;
    unsigned b = __ballot(p);
    if (__any(p) && (threadIdx.x & 31) == 0) out[threadIdx.x / 32] = b;
}
