// Hardware case: correct look-alike (no finding). A 16x8 block loads a
// tile with a one-cell halo: each thread writes its own interior cell
// `t[ty + 1][tx + 1]`, and the edge threads also write one halo cell each
// (left/right columns, top/bottom rows). Every write goes to a different
// cell, and __syncthreads() orders them before the 4-neighbour sums.
// Correct by the programming guide.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TW 16
#define TH 8

__device__ int cell(const int *g, int x, int y)
{
    x = (x + 64) % 64;
    y = (y + 64) % 64;
    return g[y * 64 + x];
}

__global__ void four_sum(const int *g, int *out)
{
    __shared__ int t[TH + 2][TW + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int gx = blockIdx.x * TW + tx, gy = blockIdx.y * TH + ty;
    t[ty + 1][tx + 1] = cell(g, gx, gy);
    if (tx == 0)
        t[ty + 1][0] = cell(g, gx - 1, gy);
    if (tx == TW - 1)
        t[ty + 1][TW + 1] = cell(g, gx + 1, gy);
    if (ty == 0)
        t[0][tx + 1] = cell(g, gx, gy - 1);
    if (ty == TH - 1)
        t[TH + 1][tx + 1] = cell(g, gx, gy + 1);
    __syncthreads();
    out[gy * 64 + gx] = t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2];
}

// ---------------------------------------------------------------- host side
static const char *kCase = "halo_2d_distinct_writes";

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

static int *h_g;
static int at(int x, int y) { return h_g[((y + 64) % 64) * 64 + (x + 64) % 64]; }

int main()
{
    static int g[64 * 64], h_out[64 * 64];
    h_g = g;
    for (int i = 0; i < 64 * 64; ++i)
        g[i] = (i * 13 + 5) % 97;
    int *d_g, *d_out;
    cudaMalloc(&d_g, sizeof g);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_g, g, sizeof g, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        four_sum<<<dim3(64 / TW, 64 / TH), dim3(TW, TH)>>>(d_g, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        for (int y = 0; y < 64 && !wrong[0]; ++y)
            for (int x = 0; x < 64 && !wrong[0]; ++x) {
                int want = at(x, y - 1) + at(x, y + 1) + at(x - 1, y) + at(x + 1, y);
                if (h_out[y * 64 + x] != want)
                    snprintf(wrong, sizeof wrong, "(%d,%d) got %d want %d (rep %d)", x, y, h_out[y * 64 + x], want, r);
            }
    }
    return verdict(err, wrong);
}
