// Hardware case: WL007 aligned named barrier reached by half of each warp
// (outcome on the GPU: see results.toml). Two warps swap their staged
// values through PTX named barrier 1 counted for 64 threads; only lanes
// 0-15 of each warp reach it, through a wrapper, and lane 0 then publishes
// a per-warp ready flag that lanes 16-31 wait for before they read. Bug by
// the PTX ISA: `bar.sync` is the aligned form, which every non-exited
// thread of a warp must execute together, and here the warp diverges
// around it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ __forceinline__ void named_sync(unsigned id, unsigned threads)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

__global__ void swap_warps(const int *in, int *out)
{
    __shared__ int stage[64];
    __shared__ volatile int ready[2];
    int t = threadIdx.x;
    int lane = t & 31;
    int warp = t >> 5;
    int g = blockIdx.x * 64 + t;
    if (lane == 0)
        ready[warp] = 0;
    __syncthreads();
    stage[t] = in[g] * 3 + 1;
    if (lane < 16) {
        named_sync(1, 64); // expect: WL007
        if (lane == 0)
            ready[warp] = 1;
    } else {
        while (ready[warp] == 0) {
        }
    }
    out[g] = stage[t ^ 32];
}

// ---------------------------------------------------------------- host side
static const char *kCase = "named_barrier_half_warp";

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
    const int n = 128;
    int h_in[n], h_out[n], want[n];
    for (int i = 0; i < n; ++i)
        h_in[i] = (i * 7 + 3) % 23;
    for (int b = 0; b < 2; ++b)
        for (int t = 0; t < 64; ++t)
            want[b * 64 + t] = h_in[b * 64 + (t ^ 32)] * 3 + 1;
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        swap_warps<<<2, 64>>>(d_in, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        int bad = 0, first = -1;
        for (int i = 0; i < n; ++i)
            if (h_out[i] != want[i]) {
                if (first < 0) first = i;
                ++bad;
            }
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d values, out[%d]=%d want %d (rep %d)",
                     bad, n, first, h_out[first], want[first], r);
    }
    return verdict(err, wrong);
}
