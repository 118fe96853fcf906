// Hardware case: correct look-alike (no finding). The host passes the
// block's width as `stride`, so `s[ty * stride + tx]` gives each thread of
// the 32x4 block its own slot; after __syncthreads() each thread reads its
// right neighbour's slot. Correct by the programming guide: the writes are
// lane-distinct and the barrier orders them before the reads.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void shift_left(const int *in, int *out, int stride)
{
    __shared__ int s[128];
    int tx = threadIdx.x, ty = threadIdx.y;
    s[ty * stride + tx] = in[ty * stride + tx];
    __syncthreads();
    int nx = (tx + 1) % stride;
    out[ty * stride + tx] = s[ty * stride + nx];
}

// ---------------------------------------------------------------- host side
static const char *kCase = "launch_passed_row_stride";

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
    const int w = 32;
    int h_in[128], h_out[128];
    for (int i = 0; i < 128; ++i)
        h_in[i] = i * 3 + 1;
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    dim3 block(w, 4);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        shift_left<<<1, block>>>(d_in, d_out, block.x);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        for (int i = 0; i < 128 && !wrong[0]; ++i) {
            int want = h_in[(i / w) * w + (i % w + 1) % w];
            if (h_out[i] != want)
                snprintf(wrong, sizeof wrong, "slot %d got %d want %d (rep %d)", i, h_out[i], want, r);
        }
    }
    return verdict(err, wrong);
}
