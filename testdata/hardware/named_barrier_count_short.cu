// Hardware case: WL009 named barrier whose count the arriving warps never
// make up (outcome on the GPU: see results.toml). A warp-specialized
// 128-thread block: warps 0-1 are producers that load a tile of 64 floats
// into shared memory, warps 2-3 are consumers that wait at PTX named
// barrier 2, counted for all four warps, and then read the tile. The
// producers forgot their `bar.arrive 2, 128` after the store, so only the
// consumers' 64 threads ever arrive at barrier 2. Bug by the PTX ISA: a
// barrier completes when as many threads as its count have arrived; here
// that never happens and the consumers wait for ever.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void produce_consume(const float *in, const float *weight, float *out)
{
    __shared__ float tile[64];
    int t = threadIdx.x;
    int warp = t / 32;
    if (warp < 2) {
        // producers: stage the block's tile
        tile[t] = in[blockIdx.x * 64 + t] * 2.0f;
    } else {
        // consumers: wait for the tile, then weight it
        int c = t - 64;
        asm volatile("bar.sync 2, 128;" ::: "memory"); // expect: WL009
        out[blockIdx.x * 64 + c] = tile[c] * weight[c] + tile[63 - c];
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "named_barrier_count_short";

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
    const int blocks = 4, n = blocks * 64;
    float h_in[n], h_w[64], h_out[n], want[n];
    for (int i = 0; i < n; ++i)
        h_in[i] = (float)((i * 11 + 4) % 37);
    for (int c = 0; c < 64; ++c)
        h_w[c] = (float)(c % 5) * 0.5f;
    for (int b = 0; b < blocks; ++b)
        for (int c = 0; c < 64; ++c)
            want[b * 64 + c] = h_in[b * 64 + c] * 2.0f * h_w[c] + h_in[b * 64 + 63 - c] * 2.0f;
    float *d_in, *d_w, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_w, sizeof h_w);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    cudaMemcpy(d_w, h_w, sizeof h_w, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        produce_consume<<<4, 128>>>(d_in, d_w, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        int bad = 0, first = -1;
        for (int i = 0; i < n; ++i)
            if (h_out[i] != want[i]) {
                if (first < 0) first = i;
                ++bad;
            }
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d values, out[%d]=%g want %g (rep %d)",
                     bad, n, first, h_out[first], want[first], r);
    }
    return verdict(err, wrong);
}
