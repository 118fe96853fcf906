// Hardware case: WL006 shuffle-source-outside-mask, __syncwarp flavour
// (outcome on the GPU: see results.toml). Lane 0 of each warp is a header lane that
// handles its own value; lanes 1-31 pass values round a ring in shared memory
// and sync with __syncwarp(0xfffffffe) between the write and the read. But
// the barrier is executed by all 32 lanes, lane 0 included. Bug by the
// programming guide: the calling lane must be in the mask.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define RING_LANES 0xfffffffeu

__global__ void rotate_ring(const int *in, int *out)
{
    __shared__ int ring[128];
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int base = threadIdx.x - lane;
    int v = in[tid];
    if (lane != 0)
        ring[threadIdx.x] = v;
    __syncwarp(RING_LANES); // expect: WL006
    out[tid] = (lane == 0) ? -v : ring[base + lane % 31 + 1];
}

// ---------------------------------------------------------------- host side
static const char *kCase = "syncwarp_mask_excludes_caller";

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
    const int n = 2 * 128;
    int h_in[n], h_out[n], want[n];
    for (int i = 0; i < n; ++i)
        h_in[i] = (i * 59 + 4) % 83 + 1;
    for (int i = 0; i < n; ++i) {
        int lane = i % 32, base = i - lane;
        want[i] = lane == 0 ? -h_in[i] : h_in[base + lane % 31 + 1];
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        rotate_ring<<<2, 128>>>(d_in, d_out);
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
