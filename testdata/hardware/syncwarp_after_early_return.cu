// Hardware case: correct look-alike (no finding). After the bounds check
// `if (i >= n) return;` the surviving lanes stage a value in shared memory,
// meet at __syncwarp() (full mask), read their warp leader's slot and take a
// full-mask __all_sync vote. Correct by the programming guide: only the
// mask's non-exited lanes must arrive, and the leader (lane 0) is live
// whenever any lane of its warp is, because the live lanes are a prefix.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void add_leader_value(const int *x, int *out, int n)
{
    __shared__ int stage[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int lane = threadIdx.x & 31;
    stage[threadIdx.x] = 2 * x[i];
    __syncwarp();
    int leader_value = stage[threadIdx.x - lane];
    bool all_positive = __all_sync(0xffffffff, x[i] > 0);
    out[i] = leader_value + (all_positive ? 1000 : 0);
}

// ---------------------------------------------------------------- host side
static const char *kCase = "syncwarp_after_early_return";

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
    const int cap = 2 * 128, n = 200;
    int h_x[cap], h_out[cap], want[cap];
    for (int i = 0; i < cap; ++i)
        h_x[i] = (i * 7 + 3) % 50 - 2;
    for (int i = 0; i < cap; ++i) {
        int base = i - i % 32, all_positive = 1;
        for (int j = base; j < base + 32 && j < n; ++j)
            all_positive &= h_x[j] > 0;
        want[i] = i < n ? 2 * h_x[base] + (all_positive ? 1000 : 0) : 0;
    }
    int *d_x, *d_out;
    cudaMalloc(&d_x, sizeof h_x);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_x, h_x, sizeof h_x, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        add_leader_value<<<2, 128>>>(d_x, d_out, 200);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        int bad = 0, first = -1;
        for (int i = 0; i < cap; ++i)
            if (h_out[i] != want[i] && bad++ == 0)
                first = i;
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d values wrong, out[%d]=%d want %d (rep %d)", bad, cap, first,
                     h_out[first], want[first], r);
    }
    return verdict(err, wrong);
}
