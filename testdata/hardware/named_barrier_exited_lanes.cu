// Hardware case: the correct look-alike of named_barrier_lanes_skip
// (outcome on the GPU: see results.toml). In each 64-thread block, lanes
// 16-31 of each warp copy their element through and return; lanes 0-15
// stage a value and swap it with the other warp's through PTX named
// barrier 3 counted for 64 threads (each warp's arrival counts 32).
// Correct by the PTX ISA: the aligned `bar.sync` waits for the non-exited
// threads of the warp, and every one of them reaches it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void swap_low_lanes(const int *in, int *out)
{
    __shared__ int stage[64];
    int t = threadIdx.x;
    int lane = t & 31;
    int g = blockIdx.x * 64 + t;
    if (lane >= 16) {
        out[g] = in[g];
        return;
    }
    stage[t] = in[g] + 7;
    asm volatile("bar.sync 3, 64;" ::: "memory");
    out[g] = stage[t ^ 32];
}

// ---------------------------------------------------------------- host side
static const char *kCase = "named_barrier_exited_lanes";

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
            want[b * 64 + t] = (t & 31) >= 16 ? h_in[b * 64 + t] : h_in[b * 64 + (t ^ 32)] + 7;
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        swap_low_lanes<<<2, 64>>>(d_in, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int i = 0; i < n; ++i)
            bad += h_out[i] != want[i];
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d values (rep %d)", bad, n, r);
    }
    return verdict(err, wrong);
}
