// Hardware case: WL002 full-mask-in-divergent-code, written in inline PTX
// (outcome on the GPU: see results.toml). Each warp holds a 16-bin row in
// lanes 0-15 and scales a second array in lanes 16-31. The bin lanes total
// their row with `redux.sync.add.u32 %0, %1, 0xffffffff` (the PTX form of
// `__reduce_add_sync`) and store it in every bin. Bug by the PTX ISA:
// redux.sync waits until every non-exited thread of membermask has executed
// it, and lanes 16-31 never do.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void row_bin_totals_ptx(const unsigned *bins, unsigned *totals, const unsigned *side, unsigned *side_out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = i / 32;
    int lane = threadIdx.x & 31;
    if ((threadIdx.x & 31) < 16) {
        unsigned count = bins[warp * 16 + lane];
        unsigned row_total;
        asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(row_total) : "r"(count)); // expect: WL002
        totals[warp * 16 + lane] = row_total;
    } else {
        int j = warp * 16 + lane - 16;
        side_out[j] = side[j] * 3 + 1;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "ptx_redux_half_warp";

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
    const int warps = 16, m = warps * 16;
    unsigned h_bins[m], h_totals[m], want[m], h_side[m], h_side_out[m], want_side[m];
    for (int i = 0; i < m; ++i) {
        h_bins[i] = (i * 29 + 7) % 31;
        h_side[i] = (i * 11 + 5) % 23;
        want_side[i] = h_side[i] * 3 + 1;
    }
    for (int w = 0; w < warps; ++w) {
        unsigned row = 0;
        for (int l = 0; l < 16; ++l)
            row += h_bins[w * 16 + l];
        for (int l = 0; l < 16; ++l)
            want[w * 16 + l] = row;
    }
    unsigned *d_bins, *d_totals, *d_side, *d_side_out;
    cudaMalloc(&d_bins, sizeof h_bins);
    cudaMalloc(&d_totals, sizeof h_totals);
    cudaMalloc(&d_side, sizeof h_side);
    cudaMalloc(&d_side_out, sizeof h_side_out);
    cudaMemcpy(d_bins, h_bins, sizeof h_bins, cudaMemcpyHostToDevice);
    cudaMemcpy(d_side, h_side, sizeof h_side, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_totals, 0, sizeof h_totals);
        cudaMemset(d_side_out, 0, sizeof h_side_out);
        row_bin_totals_ptx<<<4, 128>>>(d_bins, d_totals, d_side, d_side_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_totals, d_totals, sizeof h_totals, cudaMemcpyDeviceToHost);
        cudaMemcpy(h_side_out, d_side_out, sizeof h_side_out, cudaMemcpyDeviceToHost);
        int bad = 0, first = -1, bad_side = 0;
        for (int i = 0; i < m; ++i) {
            if (h_totals[i] != want[i]) {
                if (first < 0) first = i;
                ++bad;
            }
            bad_side += h_side_out[i] != want_side[i];
        }
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d totals, totals[%d]=%u want %u, %d side values (rep %d)",
                     bad, m, first, h_totals[first], want[first], bad_side, r);
        else if (bad_side)
            snprintf(wrong, sizeof wrong, "%d of %d side values (rep %d)", bad_side, m, r);
    }
    return verdict(err, wrong);
}
