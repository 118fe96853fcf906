// Hardware case: correct look-alike (no finding). The look-alike of the
// lane_dependent_loop cases done right: the loop runs while any lane of the
// warp still has work (__any_sync makes the trip count warp-uniform), the
// full-mask shuffle is executed by every lane on every trip, and only the
// accumulation is predicated. Correct by the programming guide.
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
    for (int j = 0; __any_sync(0xffffffff, j < k); ++j) {
        int x = __shfl_sync(0xffffffff, v, (lane + j) & 31);
        if (j < k)
            acc += x;
    }
    int neighbour = __shfl_xor_sync(0xffffffff, acc, 1);
    out[tid] = acc + 10000 * neighbour;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "any_sync_lockstep_loop";

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
    int h_vals[n], h_counts[n], h_out[n], acc[n], want[n];
    for (int i = 0; i < n; ++i) {
        h_vals[i] = i % 50 + 1;
        h_counts[i] = (i * 7) % 4 + 1;
    }
    for (int i = 0; i < n; ++i) {
        int lane = i % 32, base = i - lane;
        acc[i] = 0;
        for (int j = 0; j < h_counts[i]; ++j)
            acc[i] += h_vals[base + ((lane + j) & 31)];
    }
    for (int i = 0; i < n; ++i)
        want[i] = acc[i] + 10000 * acc[i ^ 1];
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
