// Hardware case: WL007 divergent-syncthreads after an early return
// (outcome on the GPU: see results.toml). The bounds check `if (i >= n) return;` comes before a
// __syncthreads(); with n = 100 the second block has 36 live threads. Bug by
// the programming guide: __syncthreads() must be reached by all threads of
// the block, and the early return makes it conditional on the thread index.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void add_previous_warp(const int *x, int *out, int n)
{
    __shared__ int tile[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    tile[threadIdx.x] = x[i];
    __syncthreads(); // expect: WL007
    int prev = threadIdx.x >= 32 ? tile[threadIdx.x - 32] : 0;
    out[i] = x[i] + prev;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "syncthreads_after_early_return";

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
        h_in[i] = (i * 11 + 5) % 73;
    for (int i = 0; i < n; ++i) {
        int t = i % 64;
        want[i] = i >= 100 ? 0 : h_in[i] + (t >= 32 ? h_in[i - 32] : 0);
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        add_previous_warp<<<2, 64>>>(d_in, d_out, 100);
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
