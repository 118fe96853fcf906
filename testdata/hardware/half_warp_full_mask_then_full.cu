// Hardware case: WL002 full-mask-in-divergent-code (outcome on the GPU: see results.toml).
// Lanes 0-15 swap values with their neighbour through a full-mask shuffle
// inside `if (lane < 16)`; after the branch the whole warp broadcasts lane 0's
// value with another full-mask shuffle. Bug by the programming guide: the
// first call names lanes 16-31, which never reach it. On Volta+ the two call
// sites may pair with each other, so both exchanges can deliver wrong data.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

__global__ void pair_and_broadcast(const int *in, int *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[tid];
    int partner = 0;
    if (lane < 16)
        partner = __shfl_xor_sync(FULL_MASK, v, 1); // expect: WL002
    int first = __shfl_sync(FULL_MASK, v, 0);
    out[tid] = 1000 * partner + first;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "half_warp_full_mask_then_full";

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
        h_in[i] = i % 97 + 1;
    for (int i = 0; i < n; ++i) {
        int lane = i % 32, base = i - lane;
        int partner = lane < 16 ? h_in[base + (lane ^ 1)] : 0;
        want[i] = 1000 * partner + h_in[base];
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        pair_and_broadcast<<<2, 64>>>(d_in, d_out);
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
