// Hardware case: WL002 full-mask-in-divergent-code, ballot mask reused one
// branch too deep (outcome on the GPU: see results.toml). The mask is correctly taken with a ballot
// before `if (v > 0)`, but the shuffle sits in a nested `if (v & 1)`, so even
// positive lanes are named by the mask and never arrive; the source lane (the
// lowest positive lane) may be one of them. Bug by the programming guide.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void odd_lanes_get_leader(const int *in, int *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[tid];
    int r = -1;
    unsigned positive = __ballot_sync(0xffffffffu, v > 0);
    if (v > 0) {
        int leader = __ffs(positive) - 1;
        if (v & 1)
            r = __shfl_sync(positive, v, leader); // expect: WL002
    }
    out[tid] = r;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "ballot_mask_deeper_branch";

static int hw_reps()
{
    const char *r = getenv("HW_REPS");
    return r ? atoi(r) : 50;
}

static int verdict(cudaError_t err, const char *wrong)
{
    if (err != cudaSuccess) {
        printf("RESULT %s crash %s\n", kCase, cudaGetErrorString(err));
        return 2;
    }
    if (wrong[0]) {
        printf("RESULT %s wrong %s\n", kCase, wrong);
        return 1;
    }
    printf("RESULT %s ok\n", kCase);
    return 0;
}

int main()
{
    const int n = 2 * 64;
    int h_in[n], h_out[n], want[n];
    for (int i = 0; i < n; ++i)
        h_in[i] = (i * 11 + 3) % 9 - 2;
    for (int i = 0; i < n; ++i) {
        int base = i - i % 32, leader = -1;
        for (int l = 0; l < 32 && leader < 0; ++l)
            if (h_in[base + l] > 0)
                leader = l;
        want[i] = (h_in[i] > 0 && (h_in[i] & 1)) ? h_in[base + leader] : -1;
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        odd_lanes_get_leader<<<2, 64>>>(d_in, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        int bad = 0, first = -1;
        for (int i = 0; i < n; ++i)
            if (h_out[i] != want[i] && bad++ == 0)
                first = i;
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d values wrong, out[%d]=%d want %d (rep %d)", bad, n, first,
                     h_out[first], want[first], r);
    }
    return verdict(err, wrong);
}
