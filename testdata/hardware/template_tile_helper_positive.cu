// Hardware case: WL002 full-mask-in-divergent-code, through a helper
// template written for any cooperative group, given the 16-thread tile of
// a kernel template launched as `tile_positive_totals<16>` (outcome on the
// GPU: see results.toml). Only the lanes holding a positive value run the
// helper's shfl_down sum, whose shuffles name all 16 lanes of the tile;
// the tile's first lane stores the total. Bug by the programming guide:
// the lanes holding a value <= 0 are named by the shuffles and never make
// the call. (A correct version has every lane call it with v > 0 ? v : 0.)
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

template <class Group>
__device__ float tile_total(const Group &g, float v)
{
    for (int s = g.size() / 2; s > 0; s /= 2)
        v += g.shfl_down(v, s);
    return v;
}

template <int Width>
__global__ void tile_positive_totals(const float *in, float *out)
{
    auto tile = cg::tiled_partition<Width>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (v > 0.0f) {
        float t = tile_total(tile, v); // expect: WL002
        if (tile.thread_rank() == 0)
            out[i / Width] = t;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "template_tile_helper_positive";

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
    const int blocks = 8, n = blocks * 64, tiles = n / 16;
    float h_in[n], want[tiles];
    for (int i = 0; i < n; ++i) {
        // Whole numbers, so every order of the sum is exact; every tile
        // mixes signs, and its first lane is positive.
        int v = (i * 29 + 7) % 23 - 9;
        if (i % 16 == 0 && v <= 0)
            v = 1 - v;
        h_in[i] = static_cast<float>(v);
    }
    // What the code means: the sum of the tile's positive values, stored
    // by the tile's first lane.
    for (int t = 0; t < tiles; ++t) {
        float s = 0.0f;
        for (int l = 0; l < 16; ++l)
            if (h_in[t * 16 + l] > 0.0f)
                s += h_in[t * 16 + l];
        want[t] = s;
    }
    float *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof want);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof want);
        tile_positive_totals<16><<<blocks, 64>>>(d_in, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        float got[tiles];
        cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost);
        for (int t = 0; t < tiles && !wrong[0]; ++t)
            if (got[t] != want[t])
                snprintf(wrong, sizeof wrong, "out[%d] = %g want %g (rep %d)", t, got[t], want[t], r);
    }
    return verdict(err, wrong);
}
