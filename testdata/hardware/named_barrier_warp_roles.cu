// Hardware case: the correct look-alike of named_barrier_half_warp (outcome
// on the GPU: see results.toml). A 96-thread block splits by warp: warps 0
// and 1 stage values and swap them through PTX named barrier 2 counted for
// their 64 threads, while warp 2 squares a second array and never touches
// barrier 2. Correct by the PTX ISA: every lane of a warp that reaches the
// aligned `bar.sync` reaches it together, and the count is the number of
// threads of the warps that take part.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void swap_with_side_work(const int *in, int *out, const int *side_in, int *side_out)
{
    __shared__ int stage[64];
    int t = threadIdx.x;
    int warp = t / 32;
    if (warp < 2) {
        int g = blockIdx.x * 64 + t;
        stage[t] = in[g] * 2 + 5;
        asm volatile("bar.sync 2, 64;" ::: "memory");
        out[g] = stage[t ^ 32];
    } else {
        int g = blockIdx.x * 32 + (t & 31);
        int v = side_in[g];
        side_out[g] = v * v - 1;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "named_barrier_warp_roles";

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
    const int n = 128, m = 64;
    int h_in[n], h_out[n], want[n];
    int h_side[m], h_side_out[m], want_side[m];
    for (int i = 0; i < n; ++i)
        h_in[i] = (i * 13 + 5) % 29;
    for (int i = 0; i < m; ++i)
        h_side[i] = (i * 5 + 2) % 17;
    for (int b = 0; b < 2; ++b)
        for (int t = 0; t < 64; ++t)
            want[b * 64 + t] = h_in[b * 64 + (t ^ 32)] * 2 + 5;
    for (int i = 0; i < m; ++i)
        want_side[i] = h_side[i] * h_side[i] - 1;
    int *d_in, *d_out, *d_side, *d_side_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMalloc(&d_side, sizeof h_side);
    cudaMalloc(&d_side_out, sizeof h_side_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    cudaMemcpy(d_side, h_side, sizeof h_side, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        cudaMemset(d_side_out, 0, sizeof h_side_out);
        swap_with_side_work<<<2, 96>>>(d_in, d_out, d_side, d_side_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        cudaMemcpy(h_side_out, d_side_out, sizeof h_side_out, cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int i = 0; i < n; ++i)
            bad += h_out[i] != want[i];
        for (int i = 0; i < m; ++i)
            bad += h_side_out[i] != want_side[i];
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d values (rep %d)", bad, n + m, r);
    }
    return verdict(err, wrong);
}
