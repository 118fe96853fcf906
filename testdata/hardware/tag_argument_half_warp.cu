// Hardware case: WL002 full-mask-in-divergent-code, in a helper template
// whose policy class is deduced from a tag argument (outcome on the GPU:
// see results.toml). Called as tag_half_fold(HalfTagPolicy{}, v): lanes
// below the policy's 16 run a whole-warp sum; then every lane takes lane
// 0's total. Bug by the programming guide: the sum's full mask names lanes
// 16-31, which never make the call.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

struct HalfTagPolicy {
    static constexpr int kLanes = 16;
};

template <class Policy>
__device__ int tag_half_fold(Policy, int v)
{
    if ((threadIdx.x & 31) < Policy::kLanes) {
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, o); // expect: WL002
    }
    return v;
}

__global__ void tag_half_sums(const int *in, int *out)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = tag_half_fold(HalfTagPolicy{}, in[tid]);
    out[tid] = __shfl_sync(0xffffffffu, v, 0);
}

// ---------------------------------------------------------------- host side
static const char *kCase = "tag_argument_half_warp";

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
    for (int w = 0; w < n / 32; ++w) {
        int s = 0;
        for (int l = 0; l < 16; ++l)
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
        tag_half_sums<<<4, 128>>>(d_in, d_out);
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
