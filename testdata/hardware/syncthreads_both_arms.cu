// Hardware case: WL007 divergent-syncthreads (outcome on the GPU: see results.toml).
// Odd and even threads post-process differently, and each arm of the
// thread-divergent if/else has its own __syncthreads() before reading the
// other warp's slot. Bug by the programming guide: unlike warp shuffles,
// __syncthreads() in both arms of a divergent branch is not one barrier;
// each call is reached by only part of the block.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void odd_even_mix(const int *in, int *out)
{
    __shared__ int tile[64];
    int t = threadIdx.x;
    int g = blockIdx.x * 64 + t;
    tile[t] = in[g];
    int r;
    if (t & 1) {
        __syncthreads(); // expect: WL007
        r = 2 * tile[t ^ 32];
    } else {
        __syncthreads(); // expect: WL007
        r = tile[t ^ 32] + 1;
    }
    out[g] = r;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "syncthreads_both_arms";

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
        h_in[i] = (i * 5 + 2) % 67;
    for (int i = 0; i < n; ++i) {
        int t = i % 64;
        int other = h_in[i - t + (t ^ 32)]; want[i] = (t & 1) ? 2 * other : other + 1;
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        odd_even_mix<<<2, 64>>>(d_in, d_out);
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
