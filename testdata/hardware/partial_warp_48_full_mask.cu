// Hardware case: WL002 full-mask-in-divergent-code in a partial warp
// (outcome on the GPU: see results.toml). Blocks of 48 threads: the second warp has lanes 0-15
// only. A full-mask shuffle-down reduction there names lanes 16-31, which do
// not exist, and lanes 0-15 read from them. Bug by the programming guide: the
// values read from lanes that do not take part are undefined.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void __launch_bounds__(48) block_sums(const int *x, int *out)
{
    int v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset); // expect: WL002
    if ((threadIdx.x & 31) == 0)
        atomicAdd(&out[blockIdx.x], v);
}

// ---------------------------------------------------------------- host side
static const char *kCase = "partial_warp_48_full_mask";

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
    const int blocks = 8, n = blocks * 48;
    int h_x[n], h_out[blocks], want[blocks] = {0};
    for (int i = 0; i < n; ++i) {
        h_x[i] = (i * 19 + 7) % 60 + 1;
        want[i / 48] += h_x[i];
    }
    int *d_x, *d_out;
    cudaMalloc(&d_x, sizeof h_x);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_x, h_x, sizeof h_x, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        block_sums<<<8, 48>>>(d_x, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        for (int b = 0; b < blocks && !wrong[0]; ++b)
            if (h_out[b] != want[b])
                snprintf(wrong, sizeof wrong, "block %d sum %d want %d (rep %d)", b, h_out[b], want[b], r);
    }
    return verdict(err, wrong);
}
