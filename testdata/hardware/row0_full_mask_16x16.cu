// Hardware case: WL002 full-mask-in-divergent-code in a 16x16 block
// (outcome on the GPU: see results.toml). Only the first row of the tile,
// `threadIdx.y == 0`, reduces its 16 values with full-mask shuffles. With
// blockDim.x = 16 warp 0 holds rows 0 and 1, so lanes 16-31 (row 1) never
// reach the shuffles their full mask names. Bug by the programming guide.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void first_row_total(const int *tile, int *total)
{
    int x = threadIdx.x, y = threadIdx.y;
    int v = tile[y * blockDim.x + x];
    if (y == 0) {
        for (int step = 8; step > 0; step /= 2)
            v += __shfl_down_sync(0xffffffff, v, step, 16); // expect: WL002
        if (x == 0)
            *total = v;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "row0_full_mask_16x16";

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
    int h_tile[256], h_total = 0, want = 0;
    for (int i = 0; i < 256; ++i)
        h_tile[i] = (i * 11 + 3) % 50;
    for (int x = 0; x < 16; ++x)
        want += h_tile[x];
    int *d_tile, *d_total;
    cudaMalloc(&d_tile, sizeof h_tile);
    cudaMalloc(&d_total, sizeof(int));
    cudaMemcpy(d_tile, h_tile, sizeof h_tile, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_total, 0, sizeof(int));
        first_row_total<<<1, dim3(16, 16)>>>(d_tile, d_total);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(&h_total, d_total, sizeof(int), cudaMemcpyDeviceToHost);
        if (h_total != want)
            snprintf(wrong, sizeof wrong, "total %d want %d (rep %d)", h_total, want, r);
    }
    return verdict(err, wrong);
}
