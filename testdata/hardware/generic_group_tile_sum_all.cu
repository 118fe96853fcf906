// Hardware case, look-alike of generic_group_tile_sum_odd: every lane of
// each 16-thread tile calls the helper template written for any
// cooperative group, an even value bringing 0, so every lane the tile's
// shuffles name makes the call. Correct; warplint reports nothing.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <class Group>
__device__ int group_butterfly_sum(const Group &g, int v)
{
    for (int o = g.size() / 2; o > 0; o /= 2)
        v += g.shfl_xor(v, o);
    return v;
}

__global__ void tile_sum_all_odd(const int *in, int *out)
{
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[tid];
    int s = group_butterfly_sum(tile, v % 2 != 0 ? v : 0);
    out[tid] = v % 2 != 0 ? s : v;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "generic_group_tile_sum_all";

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
    const int n = 4 * 128;
    int h_in[n], want[n];
    for (int i = 0; i < n; ++i)
        h_in[i] = (i * 7 + 3) % 11;
    // An odd value becomes the sum of the odd values of its 16-lane tile.
    for (int t = 0; t < n / 16; ++t) {
        int s = 0;
        for (int l = 0; l < 16; ++l)
            if (h_in[t * 16 + l] % 2 != 0)
                s += h_in[t * 16 + l];
        for (int l = 0; l < 16; ++l)
            want[t * 16 + l] = h_in[t * 16 + l] % 2 != 0 ? s : h_in[t * 16 + l];
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof want);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof want);
        tile_sum_all_odd<<<4, 128>>>(d_in, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        int got[n];
        cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost);
        for (int i = 0; i < n && !wrong[0]; ++i)
            if (got[i] != want[i])
                snprintf(wrong, sizeof wrong, "out[%d] = %d want %d (rep %d)", i, got[i], want[i], r);
    }
    return verdict(err, wrong);
}
