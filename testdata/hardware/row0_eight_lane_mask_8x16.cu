// Hardware case: correct look-alike (no finding). An 8x16 block: the first
// row, `threadIdx.y == 0`, is exactly lanes 0-7 of warp 0, and they reduce
// their eight values with an 8-lane mask. Correct by the programming guide:
// the mask names exactly the lanes that reach the call.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void first_row_total8(const int *tile, int *total)
{
    int x = threadIdx.x, y = threadIdx.y;
    int v = tile[y * 8 + x];
    if (y == 0) {
        for (int step = 4; step > 0; step /= 2)
            v += __shfl_down_sync(0xffu, v, step, 8);
        if (x == 0)
            *total = v;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "row0_eight_lane_mask_8x16";

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
    int h_tile[128], h_total = 0, want = 0;
    for (int i = 0; i < 128; ++i)
        h_tile[i] = (i * 7 + 2) % 31;
    for (int x = 0; x < 8; ++x)
        want += h_tile[x];
    int *d_tile, *d_total;
    cudaMalloc(&d_tile, sizeof h_tile);
    cudaMalloc(&d_total, sizeof(int));
    cudaMemcpy(d_tile, h_tile, sizeof h_tile, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_total, 0, sizeof(int));
        first_row_total8<<<1, dim3(8, 16)>>>(d_tile, d_total);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(&h_total, d_total, sizeof(int), cudaMemcpyDeviceToHost);
        if (h_total != want)
            snprintf(wrong, sizeof wrong, "total %d want %d (rep %d)", h_total, want, r);
    }
    return verdict(err, wrong);
}
