// Hardware case: correct look-alike (no finding). Odd and even lanes compute
// different values and swap them with their neighbour, each arm of a
// lane-divergent if/else calling __shfl_xor_sync with the full mask. Correct
// by the programming guide on Volta+: every lane named in the mask executes a
// shuffle with the same mask, through different call sites.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

__global__ void odd_even_swap(const int *in, int *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[tid];
    int r;
    if (lane & 1)
        r = __shfl_xor_sync(FULL_MASK, 3 * v, 1);
    else
        r = __shfl_xor_sync(FULL_MASK, v + 1, 1);
    out[tid] = r;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "ifelse_both_arms_full_mask";

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
        h_in[i] = (i * 13 + 6) % 79;
    for (int i = 0; i < n; ++i) {
        int lane = i % 32, base = i - lane;
        int src = h_in[base + (lane ^ 1)]; want[i] = (lane & 1) ? src + 1 : 3 * src;
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        odd_even_swap<<<2, 64>>>(d_in, d_out);
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
