// Hardware case, look-alike of coalesced_group_formed_early: the whole
// warp forms the group and the whole warp reduces over it, each lane
// bringing its value if positive and 0 otherwise; the group's first lane
// adds the sum atomically. Correct: every lane the group names makes the
// call. warplint reports nothing.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void sum_positive_whole_group(const int *in, int *total)
{
    cg::coalesced_group active = cg::coalesced_threads();
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    int partial = cg::reduce(active, v > 0 ? v : 0, cg::plus<int>());
    if (active.thread_rank() == 0)
        atomicAdd(total, partial);
}

// ---------------------------------------------------------------- host side
static const char *kCase = "coalesced_group_whole_warp";

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
        sum_positive_whole_group<<<8, 128>>>(d_in, d_total);
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
