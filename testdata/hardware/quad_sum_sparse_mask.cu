// Hardware case: WL006 shuffle-source-outside-mask, callers and sources
// outside the mask (outcome on the GPU: see results.toml). Every lane of the
// warp folds its quad of four lanes with __shfl_xor_sync(0x11111111, v, 2)
// and then (…, 1), and lane 0 of each quad stores the sum. The mask names
// only the quads' first lanes, but all 32 lanes make the calls, and the
// lanes each one reads (xor 2, xor 1) are never in the mask. Bug by the
// programming guide: each calling lane must be named in the mask, and a
// shuffle may read only lanes in it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

constexpr unsigned kQuadLeaders = 0x11111111u;

__global__ void quad_sums(const float *in, float *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[tid];
    v += __shfl_xor_sync(kQuadLeaders, v, 2); // expect: WL006
    v += __shfl_xor_sync(kQuadLeaders, v, 1); // expect: WL006
    if (threadIdx.x % 4 == 0)
        out[tid / 4] = v;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "quad_sum_sparse_mask";

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
    const int n = 2 * 64, quads = n / 4;
    float h_in[n], h_out[quads], want[quads];
    for (int i = 0; i < n; ++i)
        h_in[i] = (float)((i * 37 + 11) % 53 + 1);
    for (int q = 0; q < quads; ++q)
        want[q] = h_in[4 * q] + h_in[4 * q + 1] + h_in[4 * q + 2] + h_in[4 * q + 3];
    float *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        quad_sums<<<2, 64>>>(d_in, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        int bad = 0, first = -1;
        for (int q = 0; q < quads; ++q)
            if (h_out[q] != want[q] && bad++ == 0)
                first = q;
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d quad sums wrong, out[%d]=%g want %g (rep %d)", bad,
                     quads, first, h_out[first], want[first], r);
    }
    return verdict(err, wrong);
}
