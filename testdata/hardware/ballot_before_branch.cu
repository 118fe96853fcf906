// Hardware case: correct look-alike (no finding). Ballot before the branch:
// the lanes that keep their element are found with __ballot_sync over the
// full warp (all lanes execute it), and that mask is what the lanes inside
// `if (keep)` use to elect a leader, reserve space and broadcast the base.
// Correct by the programming guide: the mask is exactly the set of lanes
// that reach the shuffle, and the source lane (the leader) is one of them.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void compact_positive(const int *in, int *out, int *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = i < n ? in[i] : 0;
    bool keep = v > 0;
    unsigned kept = __ballot_sync(0xffffffffu, keep);
    if (keep) {
        int leader = __ffs(kept) - 1;
        int base = 0;
        if (lane == leader)
            base = atomicAdd(count, __popc(kept));
        base = __shfl_sync(kept, base, leader);
        out[base + __popc(kept & ((1u << lane) - 1))] = v;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "ballot_before_branch";

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

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

int main()
{
    const int cap = 4 * 256, n = 1000;
    int h_in[cap], h_out[cap], want[cap], nwant = 0;
    for (int i = 0; i < cap; ++i) {
        h_in[i] = (i * 37 + 5) % 19 - 9;
        if (i < n && h_in[i] > 0)
            want[nwant++] = h_in[i];
    }
    qsort(want, nwant, sizeof(int), cmp_int);
    int *d_in, *d_out, *d_count;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMalloc(&d_count, sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        cudaMemset(d_count, 0, sizeof(int));
        compact_positive<<<4, 256>>>(d_in, d_out, d_count, 1000);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        int got = 0;
        cudaMemcpy(&got, d_count, sizeof(int), cudaMemcpyDeviceToHost);
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        if (got != nwant) {
            snprintf(wrong, sizeof wrong, "count %d want %d (rep %d)", got, nwant, r);
            break;
        }
        qsort(h_out, got, sizeof(int), cmp_int);
        for (int k = 0; k < got && !wrong[0]; ++k)
            if (h_out[k] != want[k])
                snprintf(wrong, sizeof wrong, "sorted out[%d]=%d want %d (rep %d)", k, h_out[k], want[k], r);
    }
    return verdict(err, wrong);
}
