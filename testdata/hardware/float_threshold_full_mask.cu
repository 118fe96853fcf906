// Hardware case: WL002 full-mask-in-divergent-code behind a float guard
// (outcome on the GPU: see results.toml). Each lane loads one sample and
// only lanes whose sample exceeds a threshold sum their neighbours with a
// full-mask xor shuffle. Bug by the programming guide: lanes whose sample
// is at or below the threshold never reach the call the mask names them in.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void loud_neighbours(const float *samples, float *out, float thr)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = samples[i];
    float s = 0.0f;
    if (v > thr) {
        s = v + __shfl_xor_sync(0xffffffff, v, 1); // expect: WL002
    }
    out[i] = s;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "float_threshold_full_mask";

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
    const int n = 128;
    const float thr = 0.5f;
    float h_in[n], h_out[n], want[n];
    // Pairs (2k, 2k+1) are either both loud or mixed, so the intended
    // result needs the partner's value only where both lanes are loud.
    for (int i = 0; i < n; ++i)
        h_in[i] = (i % 6 == 1) ? 0.25f : 1.0f + (float)(i % 7);
    for (int i = 0; i < n; ++i)
        want[i] = h_in[i] > thr && h_in[i ^ 1] > thr ? h_in[i] + h_in[i ^ 1] : -1.0f;
    float *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        loud_neighbours<<<1, 128>>>(d_in, d_out, thr);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        // Only lanes with a loud partner have a defined answer.
        for (int i = 0; i < n && !wrong[0]; ++i)
            if (want[i] >= 0.0f && h_out[i] != want[i])
                snprintf(wrong, sizeof wrong, "lane %d got %g want %g (rep %d)", i, h_out[i], want[i], r);
    }
    return verdict(err, wrong);
}
