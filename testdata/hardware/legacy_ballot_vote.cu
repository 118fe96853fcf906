// Hardware case: WL001 legacy-warp-primitive.
// Counting the lanes of a warp that pass a filter with the maskless __ballot.
// Bug by the programming guide: the legacy votes were deprecated in CUDA 9.0
// and are not supported for sm_70+ (a vote without .sync); nvcc/ptxas for
// sm_90 should reject it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void count_passing(const int *in, int *counts, int threshold)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int pass = in[tid] > threshold;
    unsigned votes = __ballot(pass); // expect: WL001
    if ((threadIdx.x & 31) == 0)
        counts[tid / 32] = __popc(votes);
}

// ---------------------------------------------------------------- host side
static const char *kCase = "legacy_ballot_vote";

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
    const int n = 2 * 64, warps = n / 32, threshold = 40;
    int h_in[n], h_out[warps], want[warps] = {0};
    for (int i = 0; i < n; ++i) {
        h_in[i] = (i * 53 + 7) % 100;
        want[i / 32] += h_in[i] > threshold;
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        count_passing<<<2, 64>>>(d_in, d_out, threshold);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        for (int w = 0; w < warps && !wrong[0]; ++w)
            if (h_out[w] != want[w])
                snprintf(wrong, sizeof wrong, "warp %d count %d want %d (rep %d)", w, h_out[w], want[w], r);
    }
    return verdict(err, wrong);
}
