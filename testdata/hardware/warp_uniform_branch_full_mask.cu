// Hardware case: correct look-alike (no finding). The standard block
// reduction: every warp reduces with a full-mask helper, lane 0 of each warp
// stages its partial sum, and after __syncthreads() warp 0 alone, under
// `if (threadIdx.x < 32)`, reduces the partials with the same helper.
// Correct by the programming guide: with blockDim.x a multiple of 32 the
// condition is uniform within each warp, so all 32 lanes reach the shuffles.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffffu

__device__ int warp_sum(int v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(FULL_MASK, v, offset);
    return v;
}

__global__ void block_sum(const int *in, int *out)
{
    __shared__ int warp_partial[32];
    int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    int v = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
    if (lane == 0)
        warp_partial[warp] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        int p = lane < blockDim.x / 32 ? warp_partial[lane] : 0;
        p = warp_sum(p);
        if (lane == 0)
            out[blockIdx.x] = p;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "warp_uniform_branch_full_mask";

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
    const int blocks = 8, n = blocks * 128;
    int h_in[n], h_out[blocks], want[blocks] = {0};
    for (int i = 0; i < n; ++i) {
        h_in[i] = (i * 31 + 7) % 90 - 10;
        want[i / 128] += h_in[i];
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        block_sum<<<8, 128>>>(d_in, d_out);
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
