// Hardware case: WL004 unsynchronized-shared-memory (outcome on the GPU: see results.toml).
// A warp-level tree reduction that puts __syncwarp() between the steps but
// still reads another lane's slot and writes its own in one statement,
// `s[tid] += s[tid + off]`. Bug by the programming guide: both accesses sit
// between the same pair of barriers, so lane t's read of s[t + off] is not
// ordered with lane t + off's write of it. The fix reads into a register,
// syncs, writes, syncs (see register_then_syncwarp_reduction.cu).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void block_sum(const int *in, int *out)
{
    __shared__ int s[64];
    unsigned tid = threadIdx.x;
    s[tid] = in[blockIdx.x * 64 + tid];
    __syncthreads();
    if (tid < 32) {
        s[tid] += s[tid + 32];
        __syncwarp();
        for (unsigned off = 16; off > 0; off >>= 1) {
            s[tid] += s[tid + off]; // expect: WL004
            __syncwarp();
        }
        if (tid == 0)
            out[blockIdx.x] = s[0];
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "syncwarp_same_statement_race";

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
    const int blocks = 16, n = blocks * 64;
    int h_in[n], h_out[blocks], want[blocks] = {0};
    for (int i = 0; i < n; ++i) {
        h_in[i] = (i * 23 + 9) % 100 + 1;
        want[i / 64] += h_in[i];
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        block_sum<<<16, 64>>>(d_in, d_out);
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
