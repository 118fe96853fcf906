// Hardware case: WL007 aligned named barrier skipped by some lanes of a
// warp (outcome on the GPU: see results.toml). Each 128-thread block
// reverses the first `valid` elements of its segment through shared
// memory, with PTX named barrier 1 counted for the whole block between the
// write and the mirrored read. With valid = 100, lanes 4-31 of warp 3 skip
// the branch (they are alive, and only finish the kernel after it) while
// lanes 0-3 of that warp reach the barrier. Bug by the PTX ISA: `bar.sync`
// is the aligned form, which every non-exited thread of a warp must
// execute together, and here warp 3 diverges around it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void reverse_prefix(const int *in, int *out, int valid)
{
    __shared__ int row[128];
    int t = threadIdx.x;
    int g = blockIdx.x * 128 + t;
    if (t < valid) {
        row[t] = in[g] + 1;
        asm volatile("bar.sync 1, 128;" ::: "memory"); // expect: WL007
        out[g] = row[valid - 1 - t];
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "named_barrier_lanes_skip";

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
    const int n = 256, valid = 100;
    int h_in[n], h_out[n], want[n];
    for (int i = 0; i < n; ++i)
        h_in[i] = (i * 11 + 4) % 37;
    for (int b = 0; b < 2; ++b)
        for (int t = 0; t < valid; ++t)
            want[b * 128 + t] = h_in[b * 128 + valid - 1 - t] + 1;
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        reverse_prefix<<<2, 128>>>(d_in, d_out, valid);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        int bad = 0, first = -1;
        for (int b = 0; b < 2; ++b)
            for (int t = 0; t < valid; ++t) {
                int i = b * 128 + t;
                if (h_out[i] != want[i]) {
                    if (first < 0) first = i;
                    ++bad;
                }
            }
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d values, out[%d]=%d want %d (rep %d)",
                     bad, 2 * valid, first, h_out[first], want[first], r);
    }
    return verdict(err, wrong);
}
