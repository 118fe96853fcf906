// Hardware case: WL007 divergent __syncthreads() through a helper
// (outcome on the GPU: see results.toml). A helper stages a row in shared
// memory and waits for the block with __syncthreads(); the kernel calls it
// only for rows inside the matrix. With 16x16 blocks and nrows = 20, the
// second block holds rows 16-31, so rows 20-31 skip the barrier that rows
// 16-19 wait at. Bug by the programming guide: a block barrier under a
// thread-dependent condition.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ int staged_sum(int *stage, int v)
{
    stage[threadIdx.y * 16 + threadIdx.x] = v;
    __syncthreads();
    int s = 0;
    for (int k = 0; k < 16; ++k)
        s += stage[threadIdx.y * 16 + k];
    return s;
}

__global__ void row_sums(const int *m, int *sums, int nrows)
{
    __shared__ int stage[256];
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row < nrows) {
        int s = staged_sum(stage, m[row * 16 + threadIdx.x]); // expect: WL007
        if (threadIdx.x == 0)
            sums[row] = s;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "helper_barrier_row_guard";

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
    const int nrows = 20;
    int h_m[nrows * 16], h_sums[nrows], want[nrows];
    for (int i = 0; i < nrows * 16; ++i)
        h_m[i] = (i * 5 + 1) % 17;
    for (int r = 0; r < nrows; ++r) {
        want[r] = 0;
        for (int k = 0; k < 16; ++k)
            want[r] += h_m[r * 16 + k];
    }
    int *d_m, *d_sums;
    cudaMalloc(&d_m, sizeof h_m);
    cudaMalloc(&d_sums, sizeof h_sums);
    cudaMemcpy(d_m, h_m, sizeof h_m, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_sums, 0, sizeof h_sums);
        row_sums<<<2, dim3(16, 16)>>>(d_m, d_sums, nrows);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_sums, d_sums, sizeof h_sums, cudaMemcpyDeviceToHost);
        for (int i = 0; i < nrows && !wrong[0]; ++i)
            if (h_sums[i] != want[i])
                snprintf(wrong, sizeof wrong, "row %d sum %d want %d (rep %d)", i, h_sums[i], want[i], r);
    }
    return verdict(err, wrong);
}
