// Hardware case: WL009 named barrier whose count leaves a warp over
// (outcome on the GPU: see results.toml). A 96-thread block (3 warps)
// turns 32 pixels of planar RGB into interleaved RGB: warp c stages plane c,
// scaled by its gain, in shared memory, then every thread waits at PTX
// named barrier 6 and writes one interleaved element, read from the plane
// another warp staged. The kernel was first written for two-plane data in a
// 64-thread block and the barrier's count was left at 64. Bug by the PTX
// ISA: every arrival at barrier 6 waits (`bar.sync`), and 96 threads do not
// fill whole phases of 64: the first two warps to arrive complete one
// phase, and the third waits alone for 32 threads that never come.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void planar_to_interleaved(const float *planes, const float *gain, float *rgb)
{
    __shared__ float stage[96];
    int t = threadIdx.x;
    int plane = t / 32;
    int base = blockIdx.x * 96;
    stage[t] = planes[base + t] * gain[plane];
    asm volatile("bar.sync 6, 64;" ::: "memory"); // expect: WL009
    // element t of the interleaved output is channel t % 3 of pixel t / 3
    rgb[base + t] = stage[(t % 3) * 32 + t / 3];
}

// ---------------------------------------------------------------- host side
static const char *kCase = "named_barrier_count_leftover";

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
    const int blocks = 4, n = blocks * 96;
    float h_in[n], h_gain[3] = {0.5f, 1.5f, 2.0f}, h_out[n], want[n];
    for (int i = 0; i < n; ++i)
        h_in[i] = (float)((i * 13 + 7) % 41);
    for (int b = 0; b < blocks; ++b)
        for (int p = 0; p < 32; ++p)
            for (int c = 0; c < 3; ++c)
                want[b * 96 + p * 3 + c] = h_in[b * 96 + c * 32 + p] * h_gain[c];
    float *d_in, *d_gain, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_gain, sizeof h_gain);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    cudaMemcpy(d_gain, h_gain, sizeof h_gain, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        planar_to_interleaved<<<4, 96>>>(d_in, d_gain, d_out);
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
