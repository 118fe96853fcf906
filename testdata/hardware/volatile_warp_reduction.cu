// Hardware case: WL004 unsynchronized-shared-memory (outcome on the GPU: see results.toml).
// The classic `volatile` warp-synchronous tail of a block reduction:
// once 64 partial sums remain, warp 0 finishes with `s[tid] += s[tid + off]`
// and no __syncwarp, relying on lockstep execution. Bug by the programming
// guide: under independent thread scheduling lane t's read of s[t + off] is
// not ordered with lane t + off's write of it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define BLOCK 128

__global__ void block_sum(const int *in, int *out)
{
    __shared__ int partial[BLOCK];
    unsigned tid = threadIdx.x;
    partial[tid] = in[blockIdx.x * BLOCK + tid];
    __syncthreads();
    for (unsigned s = BLOCK / 2; s > 32; s >>= 1) {
        if (tid < s)
            partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        volatile int *p = partial;
        for (unsigned off = 32; off > 0; off >>= 1)
            p[tid] += p[tid + off]; // expect: WL004
    }
    if (tid == 0)
        out[blockIdx.x] = partial[0];
}

// ---------------------------------------------------------------- host side
static const char *kCase = "volatile_warp_reduction";

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
    const int blocks = 16, n = blocks * BLOCK;
    int h_in[n], h_out[blocks], want[blocks] = {0};
    for (int i = 0; i < n; ++i) {
        h_in[i] = (i * 31 + 17) % 100 + 1;
        want[i / BLOCK] += h_in[i];
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        block_sum<<<16, 128>>>(d_in, d_out);
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
