// Hardware case: WL002 full-mask-in-divergent-code (outcome on the GPU: see results.toml).
// Only lanes 0-15 of each warp sum their half with a full-mask butterfly;
// lanes 16-31 skip the branch and exit. Bug by the programming guide: the
// mask names lanes 16-31, which cannot reach the call (they have not exited
// when the call is made; they are merely elsewhere). Often "works" because
// the other lanes finish and the hardware stops waiting for them.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void low_half_sums(const int *in, int *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    if (lane < 16) {
        int s = in[tid];
        for (int offset = 8; offset > 0; offset >>= 1)
            s += __shfl_xor_sync(0xffffffff, s, offset); // expect: WL002
        if (lane == 0)
            out[tid / 32] = s;
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "half_warp_full_mask_then_exit";

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
    const int n = 4 * 128, warps = n / 32;
    int h_in[n], h_out[warps], want[warps] = {0};
    for (int i = 0; i < n; ++i) {
        h_in[i] = (i * 29 + 3) % 50;
        if (i % 32 < 16)
            want[i / 32] += h_in[i];
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        low_half_sums<<<4, 128>>>(d_in, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        for (int w = 0; w < warps && !wrong[0]; ++w)
            if (h_out[w] != want[w])
                snprintf(wrong, sizeof wrong, "warp %d sum %d want %d (rep %d)", w, h_out[w], want[w], r);
    }
    return verdict(err, wrong);
}
