// Hardware case: the correct look-alike of ptx_redux_half_warp (outcome on
// the GPU: see results.toml). Thread i owns row i of a ragged layout whose
// length, (i * 7 + 3) % 11, is fixed by the layout. The lanes whose row is
// longer than 4 total those lengths with `redux.sync.add.u32` in inline PTX,
// under `if (v > 4)`; the mask is `__ballot_sync(0xffffffff, v > 4)`, taken
// by the whole warp before the branch. Correct by the PTX ISA: the
// membermask names exactly the lanes that execute the redux.sync.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void sum_above_threshold_ptx(unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = (i * 7 + 3) % 11;
    unsigned mask = __ballot_sync(0xffffffff, v > 4);
    unsigned total = 0;
    if (v > 4) {
        asm volatile("redux.sync.add.u32 %0, %1, %2;" : "=r"(total) : "r"(v), "r"(mask));
    }
    out[i] = total;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "ptx_redux_ballot_mask";

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
    const int n = 512;
    unsigned h_len[n], h_out[n], want[n];
    for (int i = 0; i < n; ++i)
        h_len[i] = (i * 7 + 3) % 11;
    for (int w = 0; w < n / 32; ++w) {
        unsigned sum = 0;
        for (int l = 0; l < 32; ++l)
            if (h_len[w * 32 + l] > 4)
                sum += h_len[w * 32 + l];
        for (int l = 0; l < 32; ++l)
            want[w * 32 + l] = h_len[w * 32 + l] > 4 ? sum : 0;
    }
    unsigned *d_out;
    cudaMalloc(&d_out, sizeof h_out);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0xff, sizeof h_out);
        sum_above_threshold_ptx<<<4, 128>>>(d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        int bad = 0, first = -1;
        for (int i = 0; i < n; ++i)
            if (h_out[i] != want[i]) {
                if (first < 0) first = i;
                ++bad;
            }
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d values, out[%d]=%u want %u (rep %d)",
                     bad, n, first, h_out[first], want[first], r);
    }
    return verdict(err, wrong);
}
