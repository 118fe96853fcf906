// Hardware case: WL002 full-mask-in-divergent-code, through a generic
// lambda (`[](auto g, float x)`) given the warp's 32-thread tile (outcome
// on the GPU: see results.toml). Only the lanes holding a positive value
// call it; its shfl_xor butterfly names all 32 lanes of the tile, and lane
// 0 stores the warp's total. Bug by the programming guide: the lanes
// holding a value <= 0 are named by the shuffles and never make the call.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void warp_positive_sums(const float *in, float *out)
{
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    auto total = [](auto g, float x) {
        for (int s = 16; s > 0; s /= 2)
            x += g.shfl_xor(x, s);
        return x;
    };
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (v > 0.0f) {
        float t = total(warp, v); // expect: WL002
        if (warp.thread_rank() == 0)
            out[i / 32] = t;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "generic_lambda_tile_positive";

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
    const int n = 8 * 128, warps = n / 32;
    float h_in[n], want[warps];
    for (int i = 0; i < n; ++i) {
        // Whole numbers, so every order of the sum is exact; every warp
        // mixes signs, and its lane 0 is positive.
        int v = (i * 41 + 13) % 37 - 15;
        if (i % 32 == 0 && v <= 0)
            v = 1 - v;
        h_in[i] = static_cast<float>(v);
    }
    // What the code means: the sum of the warp's positive values, stored
    // by lane 0.
    for (int w = 0; w < warps; ++w) {
        float s = 0.0f;
        for (int l = 0; l < 32; ++l)
            if (h_in[w * 32 + l] > 0.0f)
                s += h_in[w * 32 + l];
        want[w] = s;
    }
    float *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof want);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof want);
        warp_positive_sums<<<8, 128>>>(d_in, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        float got[warps];
        cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost);
        for (int w = 0; w < warps && !wrong[0]; ++w)
            if (got[w] != want[w])
                snprintf(wrong, sizeof wrong, "out[%d] = %g want %g (rep %d)", w, got[w], want[w], r);
    }
    return verdict(err, wrong);
}
