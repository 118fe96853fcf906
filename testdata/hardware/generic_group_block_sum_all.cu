// Hardware case, look-alike of generic_group_block_sum_below: every thread
// of the block calls the helper written for any cooperative group (a
// `cg::thread_group` parameter) with the block, so its `g.sync()` is a
// block barrier every thread reaches. Correct; warplint reports nothing.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ int group_tree_sum(cg::thread_group g, int *scratch, int v)
{
    int rank = g.thread_rank();
    for (int half = g.size() / 2; half > 0; half /= 2) {
        scratch[rank] = v;
        g.sync();
        if (rank < half)
            v += scratch[rank + half];
        g.sync();
    }
    return v;
}

__global__ void group_block_sum_all(const int *in, int *out)
{
    __shared__ int scratch[128];
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    v = group_tree_sum(cg::this_thread_block(), scratch, v);
    if (threadIdx.x == 0)
        out[blockIdx.x * blockDim.x] = v;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "generic_group_block_sum_all";

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
    // Thread 0 holds the sum of its block's 128 values.
    for (int b = 0; b < 4; ++b) {
        int s = 0;
        for (int t = 0; t < 128; ++t)
            s += h_in[b * 128 + t];
        for (int t = 0; t < 128; ++t)
            want[b * 128 + t] = t == 0 ? s : 0;
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof want);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof want);
        group_block_sum_all<<<4, 128>>>(d_in, d_out);
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
