// Things that look like legacy primitives but are not calls of them.
// __shfl_down(v, 1) in a comment is not a call.
#include <cstdio>

namespace compat {
// A shim in a namespace: declaring or defining these names is not a finding.
__device__ inline unsigned __ballot(int p) { return __ballot_sync(0xffffffffu, p); }
__device__ inline int __any(int p) { return __any_sync(0xffffffffu, p); }
}

struct Voter {
    __device__ bool __any(bool p) const { return __any_sync(0xffffffffu, p); }
    __device__ bool __all(bool p) const { return __all_sync(0xffffffffu, p); }
};

/* __ballot(x) in a block comment */
__device__ int __shfl_helper_count;

__global__ void lookalikes(const int *x, int *out) {
    Voter voter;
    int p = x[threadIdx.x] > 0;
    bool a = voter.__any(p);
    bool b = voter.__all(p);
    unsigned c = compat::__ballot(p);
    int d = compat::__any(p);
    const char *msg = "__shfl_down(v, 1) is deprecated";
    if (threadIdx.x == 0) printf("%s %d %d %u %d\n", msg, a, b, c, d);
    out[threadIdx.x] = __shfl_down_sync(0xffffffffu, p, 1) + __shfl_helper_count;
}
