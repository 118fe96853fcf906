// Hardware case: WL001 legacy-warp-primitive.
// A pre-Volta warp sum written with the maskless __shfl_down. Bug by the
// programming guide: the legacy intrinsics were deprecated in CUDA 9.0 and
// removed for sm_70+ (they neither name the participating lanes nor
// synchronize them). nvcc for sm_90 should reject it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define WARP_SIZE 32

__device__ int warp_sum(int v)
{
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        v += __shfl_down(v, offset); // expect: WL001
    return v;
}

__global__ void per_warp_sums(const int *in, int *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = warp_sum(in[tid]);
    if (threadIdx.x % WARP_SIZE == 0)
        out[tid / WARP_SIZE] = v;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "legacy_shfl_down_reduction";

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
        h_in[i] = (i * 37 + 11) % 100 - 20;
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
        per_warp_sums<<<4, 128>>>(d_in, d_out);
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
