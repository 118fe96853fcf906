// Hardware case: WL006 shuffle-source-outside-mask, callers outside the mask
// (outcome on the GPU: see results.toml). Every lane of the warp broadcasts lane 0's value with
// __shfl_sync(0x0000ffff, v, 0): the mask was written for a half warp, but
// lanes 16-31 make the call too. Bug by the programming guide: each calling
// lane must be named in the mask.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

constexpr unsigned kLowHalf = 0x0000ffffu;

__global__ void subtract_first(const int *in, int *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[tid];
    int first = __shfl_sync(kLowHalf, v, 0); // expect: WL006
    out[tid] = v - first;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "shfl_half_mask_all_lanes";

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
    const int n = 2 * 64;
    int h_in[n], h_out[n], want[n];
    for (int i = 0; i < n; ++i)
        h_in[i] = (i * 41 + 3) % 97 + 5;
    for (int i = 0; i < n; ++i)
        want[i] = h_in[i] - h_in[i - i % 32];
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        subtract_first<<<2, 64>>>(d_in, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        int bad = 0, first = -1;
        for (int i = 0; i < n; ++i)
            if (h_out[i] != want[i] && bad++ == 0)
                first = i;
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d values wrong, out[%d]=%d want %d (rep %d)", bad, n, first,
                     h_out[first], want[first], r);
    }
    return verdict(err, wrong);
}
