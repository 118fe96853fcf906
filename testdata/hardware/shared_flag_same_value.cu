// Hardware case: correct look-alike of WL004 unsynchronized-shared-memory (outcome on the GPU: see results.toml).
// Every lane of a warp that sees a hit stores the same flag, `hit[warp] = 1`,
// into one shared slot with no barrier between the lanes' stores, then the
// warp syncs and reads it. Correct by the programming guide: it leaves
// undefined only which of several writes to one location lands last, and
// all of them store 1.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void any_hit(const int *, int *out)
{
    __shared__ int hit[4];
    unsigned warp = threadIdx.x / 32;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 32 == 0)
        hit[warp] = 0;
    __syncwarp();
    if (i % 3 == 0)
        hit[warp] = 1;
    __syncwarp();
    out[i] = hit[warp];
}

// ---------------------------------------------------------------- host side
static const char *kCase = "shared_flag_same_value";

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
    const int blocks = 16, threads = 128, n = blocks * threads;
    int h_in[n], h_out[n], want[n];
    for (int i = 0; i < n; ++i)
        h_in[i] = i;
    for (int w = 0; w < n / 32; ++w) {
        int first = -1;
        for (int l = 0; l < 32; ++l)
            if (h_in[w * 32 + l] % 3 == 0 && first < 0)
                first = l;
        for (int l = 0; l < 32; ++l)
            want[w * 32 + l] = first >= 0 ? 1 : 0;
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0xff, sizeof h_out);
        any_hit<<<16, 128>>>(d_in, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        for (int i = 0; i < n && !wrong[0]; ++i)
            if (h_out[i] != want[i])
                snprintf(wrong, sizeof wrong, "thread %d got %d want %d (rep %d)", i, h_out[i], want[i], r);
    }
    return verdict(err, wrong);
}
