// Hardware case: WL007 divergent __syncthreads() in a loop over a thread
// block cluster's thread ranks (outcome on the GPU: see results.toml).
// Clusters of two 64-thread blocks add up n = 40 values: each thread of
// the cluster takes the values at its rank, 128 apart, and a helper sums
// one pass over the block with __syncthreads(). In the cluster's first
// block, ranks 40-63 have no value and leave the loop, while ranks 0-39
// wait at the helper's barrier. Bug by the programming guide: a block
// barrier under a thread-dependent condition.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__device__ int pass_total(int *scratch, int v)
{
    scratch[threadIdx.x] = v;
    __syncthreads();
    int s = 0;
    for (int k = 0; k < 64; ++k)
        s += scratch[k];
    __syncthreads();
    return s;
}

__global__ void __cluster_dims__(2, 1, 1) cluster_total(const int *in, int *total, unsigned n)
{
    __shared__ int scratch[64];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned stride = cluster.num_threads();
    for (unsigned i = cluster.thread_rank(); i < n; i += stride) {
        int s = pass_total(scratch, in[i]); // expect: WL007
        if (threadIdx.x == 0)
            atomicAdd(total, s);
    }
    __syncthreads();
}

// ---------------------------------------------------------------- host side
static const char *kCase = "cluster_rank_loop_barrier";

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
    const unsigned n = 40;
    int h_in[n], want = 0, got = 0;
    for (unsigned i = 0; i < n; ++i) {
        h_in[i] = (int)((i * 7 + 3) % 11);
        want += h_in[i];
    }
    int *d_in, *d_total;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_total, sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_total, 0, sizeof(int));
        cluster_total<<<2, 64>>>(d_in, d_total, n);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(&got, d_total, sizeof(int), cudaMemcpyDeviceToHost);
        if (got != want)
            snprintf(wrong, sizeof wrong, "total %d want %d (rep %d)", got, want, r);
    }
    return verdict(err, wrong);
}
