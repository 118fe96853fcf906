// Hardware case: WL006 shuffle-source-outside-mask (outcome on the GPU: see results.toml).
// Lanes 0-15 fold the upper half of the warp onto themselves with
// __shfl_sync(0x0000ffff, v, lane + 16). The mask matches the lanes that
// reach the call, but every source lane (16-31) is outside it. Bug by the
// programming guide: reading a lane that does not take part gives an
// undefined value.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void fold_halves(const int *in, int *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[tid];
    if (lane < 16) {
        int upper = __shfl_sync(0x0000ffffu, v, lane + 16); // expect: WL006
        out[tid / 32 * 16 + lane] = v + upper;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "shfl_source_outside_mask";

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
    const int n = 2 * 64, half = n / 2;
    int h_in[n], h_out[half], want[half];
    for (int i = 0; i < n; ++i)
        h_in[i] = (i * 43 + 1) % 89 + 1;
    for (int i = 0; i < n; ++i)
        if (i % 32 < 16)
            want[i / 32 * 16 + i % 32] = h_in[i] + h_in[i + 16];
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        fold_halves<<<2, 64>>>(d_in, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        int bad = 0, first = -1;
        for (int i = 0; i < half; ++i)
            if (h_out[i] != want[i] && bad++ == 0)
                first = i;
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d values wrong, out[%d]=%d want %d (rep %d)", bad, half, first,
                     h_out[first], want[first], r);
    }
    return verdict(err, wrong);
}
