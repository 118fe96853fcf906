// Hardware case: WL003 activemask-as-mask (outcome on the GPU: see results.toml).
// Lanes above a threshold sum their weights with __reduce_add_sync over
// __activemask(), and the lowest active lane stores the warp's total. Bug by
// the programming guide: __activemask() gives the lanes that happen to be
// converged at that moment, not the lanes that took the branch; after the
// lane-dependent loop before the branch the scheduler may split them, and
// then several "leaders" store partial totals. The store is not an atomic
// accumulation, so the split changes the result.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ int collatz_steps(int x)
{
    int steps = 0;
    while (x != 1 && steps < 64) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        ++steps;
    }
    return steps;
}

__global__ void warp_weight_totals(const int *vals, int *warp_totals, int threshold)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = vals[tid];
    int weight = collatz_steps(v);
    if (v > threshold) {
        unsigned active = __activemask();
        int total = __reduce_add_sync(active, weight); // expect: WL003
        if (lane == __ffs(active) - 1)
            warp_totals[tid / 32] = total;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "activemask_partial_reduction";

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

static int host_collatz_steps(int x)
{
    int steps = 0;
    while (x != 1 && steps < 64) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        ++steps;
    }
    return steps;
}

int main()
{
    const int n = 512 * 256, warps = n / 32, threshold = 300;
    int *h_vals = new int[n], *h_out = new int[warps], *want = new int[warps]();
    for (int i = 0; i < n; ++i) {
        h_vals[i] = (int)((i * 2654435761u) % 1000u) + 1;
        if (h_vals[i] > threshold)
            want[i / 32] += host_collatz_steps(h_vals[i]);
    }
    int *d_vals, *d_out;
    cudaMalloc(&d_vals, n * sizeof(int));
    cudaMalloc(&d_out, warps * sizeof(int));
    cudaMemcpy(d_vals, h_vals, n * sizeof(int), cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    long sampled = 0;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, warps * sizeof(int));
        warp_weight_totals<<<512, 256>>>(d_vals, d_out, 300);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, warps * sizeof(int), cudaMemcpyDeviceToHost);
        int bad = 0, first = -1;
        for (int w = 0; w < warps; ++w)
            if (h_out[w] != want[w] && bad++ == 0)
                first = w;
        sampled += warps;
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d warps partial, warp %d total %d want %d (rep %d)", bad, warps,
                     first, h_out[first], want[first], r);
    }
    printf("sampled %ld warps\n", sampled);
    return verdict(err, wrong);
}
