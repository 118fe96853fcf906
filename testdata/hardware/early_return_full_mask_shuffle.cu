// Hardware case: WL002 full-mask-in-divergent-code (outcome on the GPU: see results.toml).
// The usual bounds check `if (i >= n) return;` followed by a full-mask
// shuffle-down reduction. With n = 100 the last warp has 4 live lanes, and
// lanes 0-3 read lanes 4-31, which have exited. Bug by the programming guide:
// a shuffle that reads an exited lane gets an undefined value (the full mask
// itself is tolerated for exited lanes, the read is not).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void sum_array(const int *x, int *total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = x[i];
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffff, v, offset); // expect: WL002
    if ((threadIdx.x & 31) == 0)
        atomicAdd(total, v);
}

// ---------------------------------------------------------------- host side
static const char *kCase = "early_return_full_mask_shuffle";

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
    const int n = 100;
    int h_x[n], want = 0;
    for (int i = 0; i < n; ++i) {
        h_x[i] = (i * 13 + 5) % 40 + 1;
        want += h_x[i];
    }
    int *d_x, *d_total;
    cudaMalloc(&d_x, sizeof h_x);
    cudaMalloc(&d_total, sizeof(int));
    cudaMemcpy(d_x, h_x, sizeof h_x, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_total, 0, sizeof(int));
        sum_array<<<2, 64>>>(d_x, d_total, 100);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        int got = 0;
        cudaMemcpy(&got, d_total, sizeof(int), cudaMemcpyDeviceToHost);
        if (got != want)
            snprintf(wrong, sizeof wrong, "total %d want %d (rep %d)", got, want, r);
    }
    return verdict(err, wrong);
}
