// Hardware case: WL002 full-mask-in-divergent-code, through a helper
// (outcome on the GPU: see results.toml). A reusable warp reduction whose mask parameter defaults
// to the full warp is called inside `if (tid < n)` with n = 300, so in warp 9
// only lanes 0-11 make the call. Bug by the programming guide: the default
// mask names lanes 12-31, which cannot reach the call, and the butterfly
// reads them. The finding belongs at the call site in the caller.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T v, unsigned mask = 0xffffffffu)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(mask, v, offset);
    return v;
}

__global__ void count_matches(const int *keys, int *hits, int n, int key)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n) {
        int h = warp_reduce_sum(keys[tid] == key ? 1 : 0); // expect: WL002
        if ((threadIdx.x & 31) == 0)
            atomicAdd(hits, h);
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "helper_default_full_mask";

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
    const int cap = 4 * 128, n = 300, key = 3;
    int h_keys[cap], want = 0;
    for (int i = 0; i < cap; ++i) {
        h_keys[i] = (i * 7 + 1) % 5;
        if (i < n && h_keys[i] == key)
            ++want;
    }
    int *d_keys, *d_hits;
    cudaMalloc(&d_keys, sizeof h_keys);
    cudaMalloc(&d_hits, sizeof(int));
    cudaMemcpy(d_keys, h_keys, sizeof h_keys, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_hits, 0, sizeof(int));
        count_matches<<<4, 128>>>(d_keys, d_hits, 300, 3);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        int got = 0;
        cudaMemcpy(&got, d_hits, sizeof(int), cudaMemcpyDeviceToHost);
        if (got != want)
            snprintf(wrong, sizeof wrong, "hits %d want %d (rep %d)", got, want, r);
    }
    return verdict(err, wrong);
}
