// Hardware case: correct look-alike of class_default_width_prefix (outcome
// on the GPU: see results.toml). The same default-width reduction, called by
// every lane, the lanes past the first 20 of each warp contributing zero;
// then every lane takes lane 0's total. Correct by the programming guide:
// every lane the mask names makes the call.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

// A warp reduction class in the shape of CUB's: the logical warp width is a
// template parameter with a default, and the mask names that many lanes.
template <typename T, int LANES = 32>
struct LaneReduce {
    unsigned member_mask;

    __device__ LaneReduce()
        : member_mask(LANES == 32 ? 0xffffffffu : (1u << LANES) - 1u) {}

    __device__ T Sum(T v)
    {
        for (int o = LANES / 2; o > 0; o /= 2)
            v += __shfl_down_sync(member_mask, v, o, LANES);
        return v;
    }
};

__global__ void prefix_sums(const int *in, int *out, int valid)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = (threadIdx.x & 31) < valid ? in[tid] : 0;
    int total = LaneReduce<int>().Sum(v);
    out[tid] = __shfl_sync(0xffffffffu, total, 0);
}

// ---------------------------------------------------------------- host side
static const char *kCase = "class_default_width_padded";

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
    const int n = 4 * 128;
    int h_in[n], want[n];
    for (int i = 0; i < n; ++i)
        h_in[i] = (i * 7 + 3) % 11;
    const int valid = 20;
    for (int w = 0; w < n / 32; ++w) {
        int s = 0;
        for (int l = 0; l < valid; ++l)
            s += h_in[w * 32 + l];
        for (int l = 0; l < 32; ++l)
            want[w * 32 + l] = s;
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof want);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof want);
        prefix_sums<<<4, 128>>>(d_in, d_out, 20);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        int got[n];
        cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost);
        for (int i = 0; i < n && !wrong[0]; ++i)
            if (got[i] != want[i])
                snprintf(wrong, sizeof wrong, "out[%d] = %d want %d (rep %d)", i, got[i], want[i], r);
    }
    return verdict(err, wrong);
}
