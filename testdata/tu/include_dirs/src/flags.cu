#include <vote.cuh>

__global__ void spread_head(const int *v, int *out, int n) {
    int i = threadIdx.x;
    int x = v[i];
    if (i < n) {
        x = take_from(x, 0); // expect: WL002
    }
    out[i] = x;
}

__global__ void spread_all(const int *v, int *out) {
    int i = threadIdx.x;
    out[i] = take_from(v[i], 0);
}
