// Hardware case: WL002 full-mask-in-divergent-code, written in inline PTX
// (outcome on the GPU: see results.toml). Each lane holds one channel of an
// RGBA pixel (lane % 4 == 3 is alpha); the colour lanes sum their channels
// with a helper doing the five steps of a warp sum as
// `shfl.sync.down.b32 t|p, v, N, 31, 0xffffffff; @p add.u32 v, v, t;`, and
// lane 0 stores the warp's colour total. Bug by the PTX ISA: shfl.sync
// waits until every non-exited thread of membermask has executed it, and
// the alpha lanes (3, 7, ..., 31) never do; the lanes below them read
// their registers.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned warp_reduce_ptx(unsigned v)
{
    asm volatile("{ .reg .pred p; .reg .b32 t; shfl.sync.down.b32 t|p, %0, 16, 31, 0xffffffff; @p add.u32 %0, %0, t; }" : "+r"(v));
    asm volatile("{ .reg .pred p; .reg .b32 t; shfl.sync.down.b32 t|p, %0, 8, 31, 0xffffffff; @p add.u32 %0, %0, t; }" : "+r"(v));
    asm volatile("{ .reg .pred p; .reg .b32 t; shfl.sync.down.b32 t|p, %0, 4, 31, 0xffffffff; @p add.u32 %0, %0, t; }" : "+r"(v));
    asm volatile("{ .reg .pred p; .reg .b32 t; shfl.sync.down.b32 t|p, %0, 2, 31, 0xffffffff; @p add.u32 %0, %0, t; }" : "+r"(v));
    asm volatile("{ .reg .pred p; .reg .b32 t; shfl.sync.down.b32 t|p, %0, 1, 31, 0xffffffff; @p add.u32 %0, %0, t; }" : "+r"(v));
    return v;
}

__global__ void sum_rgb_channels_ptx(const unsigned *rgba, unsigned *colour_totals)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = rgba[i];
    if ((threadIdx.x & 31) % 4 != 3) {
        unsigned s = warp_reduce_ptx(v); // expect: WL002
        if ((threadIdx.x & 31) == 0)
            colour_totals[i / 32] = s;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "ptx_shfl_down_partial";

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
    const int n = 512, warps = n / 32;
    unsigned h_px[n], h_tot[warps], want[warps];
    for (int i = 0; i < n; ++i)
        h_px[i] = i % 4 == 3 ? 255 : (i * 53 + 17) % 256;
    for (int w = 0; w < warps; ++w) {
        want[w] = 0;
        for (int l = 0; l < 32; ++l)
            if (l % 4 != 3)
                want[w] += h_px[w * 32 + l];
    }
    unsigned *d_px, *d_tot;
    cudaMalloc(&d_px, sizeof h_px);
    cudaMalloc(&d_tot, sizeof h_tot);
    cudaMemcpy(d_px, h_px, sizeof h_px, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_tot, 0, sizeof h_tot);
        sum_rgb_channels_ptx<<<4, 128>>>(d_px, d_tot);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_tot, d_tot, sizeof h_tot, cudaMemcpyDeviceToHost);
        int bad = 0, first = -1;
        for (int w = 0; w < warps; ++w)
            if (h_tot[w] != want[w]) {
                if (first < 0) first = w;
                ++bad;
            }
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d warp totals, total[%d]=%u want %u (rep %d)",
                     bad, warps, first, h_tot[first], want[first], r);
    }
    return verdict(err, wrong);
}
