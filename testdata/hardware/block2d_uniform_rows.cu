// Hardware case: correct look-alike (no finding). The look-alike of
// block2d_row_branch_full_mask.cu done right: with blockDim = (16, 8) each
// warp holds two rows, and the branch `threadIdx.y < HALO_ROWS` keeps the
// first four rows, an even count, so it splits the block on warp boundaries.
// Correct by the programming guide: all 32 lanes of each warp inside the
// branch reach the full-mask, width-16 shuffle.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE_W 16
#define HALO_ROWS 4

__global__ void top_rows_maxima(const int *img, int *row_max)
{
    int x = threadIdx.x, y = threadIdx.y;
    if (y < HALO_ROWS) {
        int v = img[(blockIdx.x * blockDim.y + y) * TILE_W + x];
        for (int offset = TILE_W / 2; offset > 0; offset >>= 1)
            v = max(v, __shfl_xor_sync(0xffffffff, v, offset, TILE_W));
        if (x == 0)
            row_max[blockIdx.x * HALO_ROWS + y] = v;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "block2d_uniform_rows";

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
    const int tiles = 2, rows = tiles * 8, outs = tiles * HALO_ROWS;
    int h_img[rows * TILE_W], h_out[outs], want[outs];
    for (int i = 0; i < rows * TILE_W; ++i)
        h_img[i] = (i * 37 + 13) % 211;
    for (int t = 0; t < tiles; ++t)
        for (int y = 0; y < HALO_ROWS; ++y) {
            int m = -1, row = t * 8 + y;
            for (int x = 0; x < TILE_W; ++x)
                m = h_img[row * TILE_W + x] > m ? h_img[row * TILE_W + x] : m;
            want[t * HALO_ROWS + y] = m;
        }
    int *d_img, *d_out;
    cudaMalloc(&d_img, sizeof h_img);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_img, h_img, sizeof h_img, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0xff, sizeof h_out);
        top_rows_maxima<<<2, dim3(16, 8)>>>(d_img, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        for (int k = 0; k < outs && !wrong[0]; ++k)
            if (h_out[k] != want[k])
                snprintf(wrong, sizeof wrong, "row max %d = %d want %d (rep %d)", k, h_out[k], want[k], r);
    }
    return verdict(err, wrong);
}
