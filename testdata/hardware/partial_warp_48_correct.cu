// Hardware case: correct look-alike (no finding). The look-alike of
// partial_warp_48_full_mask.cu done right: with 48-thread blocks the mask of
// each warp is computed from blockDim (full for warp 0, lanes 0-15 for
// warp 1), and __reduce_add_sync reads no lane outside it. Correct by the
// programming guide.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned lanes_present_in_my_warp()
{
    int first = threadIdx.x & ~31;
    int present = min(32, (int)blockDim.x - first);
    return present == 32 ? 0xffffffffu : (1u << present) - 1;
}

__global__ void __launch_bounds__(48) block_sums(const int *x, int *out)
{
    unsigned mask = lanes_present_in_my_warp();
    int v = x[blockIdx.x * blockDim.x + threadIdx.x];
    v = __reduce_add_sync(mask, v);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(&out[blockIdx.x], v);
}

// ---------------------------------------------------------------- host side
static const char *kCase = "partial_warp_48_correct";

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
    const int blocks = 8, n = blocks * 48;
    int h_x[n], h_out[blocks], want[blocks] = {0};
    for (int i = 0; i < n; ++i) {
        h_x[i] = (i * 19 + 7) % 60 + 1;
        want[i / 48] += h_x[i];
    }
    int *d_x, *d_out;
    cudaMalloc(&d_x, sizeof h_x);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_x, h_x, sizeof h_x, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        block_sums<<<8, 48>>>(d_x, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        for (int b = 0; b < blocks && !wrong[0]; ++b)
            if (h_out[b] != want[b])
                snprintf(wrong, sizeof wrong, "block %d sum %d want %d (rep %d)", b, h_out[b], want[b], r);
    }
    return verdict(err, wrong);
}
