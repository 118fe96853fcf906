// The same kernel in both apps; only the vendored warpkit differs.
#include <warpkit/broadcast.cuh>

__global__ void tail_broadcast(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (i < n) {
        v = wk_broadcast(v);
    }
    out[i] = v;
}
