// Hardware case: WL005 shuffle-width-not-power-of-two (outcome on the GPU: see results.toml).
// Each group of six lanes should take the value of its first lane, written as
// __shfl_sync(FULL, v, 0, 6). Bug by the programming guide: width must be a
// power of two no larger than 32; the hardware forms segments by bit mask.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define GROUP 6

__global__ void group_leader_value(const int *in, int *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[tid];
    out[tid] = __shfl_sync(0xffffffffu, v, 0, GROUP); // expect: WL005
}

// ---------------------------------------------------------------- host side
static const char *kCase = "shfl_width_six";

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
        h_in[i] = (i * 7 + 2) % 101;
    for (int i = 0; i < n; ++i) {
        int lane = i % 32, base = i - lane;
        want[i] = h_in[base + lane / GROUP * GROUP];
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        group_leader_value<<<2, 64>>>(d_in, d_out);
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
