// Hardware case: WL002 full-mask-in-divergent-code, through a coalesced
// group formed too early and handed to a helper (outcome on the GPU: see
// results.toml). Stream compaction: the whole warp forms the group with
// cg::coalesced_threads(), then only the lanes holding a nonzero value
// call a helper taking `const cg::coalesced_group &` that reserves their
// output slots (the group's first lane adds the group's size to a counter,
// the others read the base back with g.shfl). Bug by the programming
// guide: the group names the lanes holding 0, which never reach the
// helper's shuffle.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// One output slot per lane of g: the group's first lane reserves g.size()
// slots at once, every lane then takes base + its rank.
__device__ int claim_slot(const cg::coalesced_group &g, int *next_free)
{
    int first = 0;
    if (g.thread_rank() == 0)
        first = atomicAdd(next_free, static_cast<int>(g.size()));
    return g.shfl(first, 0) + static_cast<int>(g.thread_rank());
}

__global__ void keep_nonzero_early(const int *in, int *out, int *kept)
{
    cg::coalesced_group lanes = cg::coalesced_threads();
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (v != 0) {
        out[claim_slot(lanes, kept)] = v; // expect: WL002
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "coalesced_helper_formed_early";

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
    const int cap = 2 * n; // room for slots past the end, should any appear
    static int h_in[n], want[n], got[cap];
    int nonzero = 0;
    for (int i = 0; i < n; ++i) {
        // Every warp holds zeros and nonzeros; lane 0 is zero in some warps.
        int v = (i * 53 + 5) % 199 - 99;
        if (i % 7 == 3 || i % 5 == 1 || v == 0)
            v = (i % 7 == 3 || i % 5 == 1) ? 0 : 100;
        h_in[i] = v;
        if (v != 0)
            want[nonzero++] = v;
    }
    std::sort(want, want + nonzero);
    int *d_in, *d_out, *d_kept;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof got);
    cudaMalloc(&d_kept, sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof got);
        cudaMemset(d_kept, 0, sizeof(int));
        keep_nonzero_early<<<8, 128>>>(d_in, d_out, d_kept);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        int kept = 0;
        cudaMemcpy(&kept, d_kept, sizeof(int), cudaMemcpyDeviceToHost);
        if (kept != nonzero) {
            snprintf(wrong, sizeof wrong, "kept %d want %d (rep %d)", kept, nonzero, r);
            break;
        }
        cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost);
        std::sort(got, got + kept);
        for (int i = 0; i < kept && !wrong[0]; ++i)
            if (got[i] != want[i])
                snprintf(wrong, sizeof wrong, "sorted out[%d] = %d want %d (rep %d)", i, got[i], want[i], r);
    }
    return verdict(err, wrong);
}
