// Hardware case: the correct look-alike of
// cluster_sync_divergent_then_uniform (outcome on the GPU: see
// results.toml). The same fold, but every thread of the cluster meets at
// both cluster.sync() calls and only the fold itself is under the
// condition. Correct by the programming guide.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) fold_then_exchange(const int *in, int *out)
{
    __shared__ int tile[64];
    cg::cluster_group cluster = cg::this_cluster();
    int t = threadIdx.x;
    int g = blockIdx.x * 64 + t;
    tile[t] = in[g];
    cluster.sync();
    if (t < 16)
        tile[t] += tile[t + 32];
    cluster.sync();
    out[g] = tile[t ^ 32];
}

// ---------------------------------------------------------------- host side
static const char *kCase = "cluster_sync_uniform_fold";

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
    const int n = 128;
    int h_in[n], h_out[n], want[n];
    for (int i = 0; i < n; ++i)
        h_in[i] = (i * 13 + 5) % 29;
    for (int b = 0; b < 2; ++b)
        for (int t = 0; t < 64; ++t) {
            int s = t ^ 32;
            int v = h_in[b * 64 + s];
            if (s < 16)
                v += h_in[b * 64 + s + 32];
            want[b * 64 + t] = v;
        }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        fold_then_exchange<<<2, 64>>>(d_in, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int i = 0; i < n; ++i)
            bad += h_out[i] != want[i];
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d values (rep %d)", bad, n, r);
    }
    return verdict(err, wrong);
}
