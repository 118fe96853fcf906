// Hardware case: WL002 full-mask-in-divergent-code in a 2-D block
// (outcome on the GPU: see results.toml). With blockDim = (16, 8) each warp holds two image rows.
// Rows past the image height skip the work; with height = 5, warp 2 holds
// row 4 (inside) and row 5 (outside), so only its lanes 0-15 make the
// full-mask, width-16 shuffle. Bug by the programming guide: the mask names
// lanes 16-31, which cannot reach the call.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE_W 16

__global__ void row_maxima(const int *img, int *row_max, int height)
{
    int x = threadIdx.x;
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row < height) {
        int v = img[row * TILE_W + x];
        for (int offset = TILE_W / 2; offset > 0; offset >>= 1)
            v = max(v, __shfl_xor_sync(0xffffffff, v, offset, TILE_W)); // expect: WL002
        if (x == 0)
            row_max[row] = v;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "block2d_row_branch_full_mask";

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
    const int height = 5, pixels = 8 * TILE_W;
    int h_img[pixels], h_out[8], want[8];
    for (int i = 0; i < pixels; ++i)
        h_img[i] = (i * 37 + 13) % 211;
    for (int y = 0; y < 8; ++y) {
        want[y] = -1;
        for (int x = 0; y < height && x < TILE_W; ++x)
            want[y] = h_img[y * TILE_W + x] > want[y] ? h_img[y * TILE_W + x] : want[y];
    }
    int *d_img, *d_out;
    cudaMalloc(&d_img, sizeof h_img);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_img, h_img, sizeof h_img, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0xff, sizeof h_out);
        row_maxima<<<1, dim3(16, 8)>>>(d_img, d_out, 5);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        for (int y = 0; y < 8 && !wrong[0]; ++y)
            if (h_out[y] != want[y])
                snprintf(wrong, sizeof wrong, "row %d max %d want %d (rep %d)", y, h_out[y], want[y], r);
    }
    return verdict(err, wrong);
}
