// Hardware case: correct look-alike (no finding). A reduction over tiles of
// 16 threads with cooperative groups: tiled_partition<16> and the tile's
// shfl_down, which pass the tile's own mask. Correct by the programming guide.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void tile_sums(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int offset = tile.size() / 2; offset > 0; offset >>= 1)
        v += tile.shfl_down(v, offset);
    if (tile.thread_rank() == 0)
        out[blockIdx.x * (blockDim.x / 16) + block.thread_rank() / 16] = v;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "tiled_partition16_reduction";

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
    const int n = 4 * 128, tiles = n / 16;
    int h_in[n], h_out[tiles], want[tiles] = {0};
    for (int i = 0; i < n; ++i) {
        h_in[i] = (i * 29 + 13) % 100 - 30;
        want[i / 16] += h_in[i];
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        tile_sums<<<4, 128>>>(d_in, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        for (int t = 0; t < tiles && !wrong[0]; ++t)
            if (h_out[t] != want[t])
                snprintf(wrong, sizeof wrong, "tile %d sum %d want %d (rep %d)", t, h_out[t], want[t], r);
    }
    return verdict(err, wrong);
}
