// Hardware case: WL002 full-mask-in-divergent-code, through a coalesced
// group formed too early (outcome on the GPU: see results.toml). The whole
// warp forms the group with cg::coalesced_threads(); only the lanes with a
// positive value then reduce over it, and the group's first lane adds the
// sum atomically. Bug by the programming guide: the group's mask names
// the lanes without a positive value, which never make the call.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void sum_positive_early_group(const int *in, int *total)
{
    cg::coalesced_group active = cg::coalesced_threads();
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (v > 0) {
        int partial = cg::reduce(active, v, cg::plus<int>()); // expect: WL002
        if (active.thread_rank() == 0)
            atomicAdd(total, partial);
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "coalesced_group_formed_early";

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
    const int n = 8 * 128;
    int h_in[n], want = 0;
    for (int i = 0; i < n; ++i) {
        h_in[i] = (i * 47 + 21) % 41 - 20;
        if (h_in[i] > 0)
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
        sum_positive_early_group<<<8, 128>>>(d_in, d_total);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        int got = 0;
        cudaMemcpy(&got, d_total, sizeof(int), cudaMemcpyDeviceToHost);
        if (got != want)
            snprintf(wrong, sizeof wrong, "total %d want %d (rep %d)", got, want, r);
    }
    return verdict(err, wrong);
}
