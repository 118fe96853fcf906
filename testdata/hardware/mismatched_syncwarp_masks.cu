// Hardware case: WL002 full-mask-in-divergent-code, mismatched masks
// (outcome on the GPU: see results.toml). Lanes 0-15 stage data and sync with __syncwarp(0x0000ffff)
// while lanes 16-31 sync with __syncwarp(0xffffffff). Bug by the programming
// guide: the full mask names lanes 0-15, which never arrive at a __syncwarp
// with that mask.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void swap_neighbours(const int *in, int *out)
{
    __shared__ int stage[64];
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    stage[threadIdx.x] = 2 * in[tid];
    int r;
    if (lane < 16) {
        __syncwarp(0x0000ffff);
        r = stage[threadIdx.x ^ 1];
    } else {
        __syncwarp(0xffffffff); // expect: WL002
        r = stage[threadIdx.x ^ 1];
    }
    out[tid] = r + 1;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "mismatched_syncwarp_masks";

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
        h_in[i] = (i * 17 + 5) % 91;
    for (int i = 0; i < n; ++i)
        want[i] = 2 * h_in[i ^ 1] + 1;
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        swap_neighbours<<<2, 64>>>(d_in, d_out);
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
