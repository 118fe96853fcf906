// Hardware case: WL002 full-mask-in-divergent-code (outcome on the GPU: see results.toml).
// Each lane gathers a number of neighbours that depends on its own data
// (1 to 4), with a full-mask shuffle inside the loop. Bug by the programming
// guide: from the second iteration on, the mask names lanes that have
// already left the loop and will never reach the call again.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void gather_neighbours(const int *vals, const int *counts, int *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = vals[tid];
    int k = counts[tid];
    int acc = 0;
    for (int j = 0; j < k; ++j)
        acc += __shfl_sync(0xffffffff, v, (lane + j) & 31); // expect: WL002
    out[tid] = acc;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "lane_dependent_loop_shuffle";

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
    int h_vals[n], h_counts[n], h_out[n], want[n];
    for (int i = 0; i < n; ++i) {
        h_vals[i] = i % 50 + 1;
        h_counts[i] = (i * 7) % 4 + 1;
    }
    for (int i = 0; i < n; ++i) {
        int lane = i % 32, base = i - lane;
        want[i] = 0;
        for (int j = 0; j < h_counts[i]; ++j)
            want[i] += h_vals[base + ((lane + j) & 31)];
    }
    int *d_vals, *d_counts, *d_out;
    cudaMalloc(&d_vals, sizeof h_vals);
    cudaMalloc(&d_counts, sizeof h_counts);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_vals, h_vals, sizeof h_vals, cudaMemcpyHostToDevice);
    cudaMemcpy(d_counts, h_counts, sizeof h_counts, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        gather_neighbours<<<2, 64>>>(d_vals, d_counts, d_out);
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
