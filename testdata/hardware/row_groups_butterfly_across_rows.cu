// Hardware case: WL002 full-mask-in-divergent-code (outcome on the GPU: see results.toml).
// The same row groups of 8 lanes, but the butterfly spans two rows (width
// 2 * kLanes, first offset kLanes): lanes 16-23 (row 2) read lanes 24-31,
// whose row is past the last one and which have returned. Bug by the
// programming guide: a shuffle that reads an exited lane gets an undefined
// value. The rows hold negative values, so a read of 0 shows in the max.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <int kPerLane, int kItems>
__global__ void row_pair_max(const float *in, float *out, int rows)
{
    constexpr int kLanes = kItems / kPerLane;
    static_assert(32 % kLanes == 0, "a row's lanes divide the warp");
    const int row = blockIdx.x * (32 / kLanes) + threadIdx.x / kLanes;
    if (row >= rows)
        return;
    float m = in[row * kItems + (threadIdx.x % kLanes) * kPerLane];
    for (int i = 1; i < kPerLane; ++i)
        m = fmaxf(m, in[row * kItems + (threadIdx.x % kLanes) * kPerLane + i]);
    for (int off = kLanes; off > 0; off /= 2)
        m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, off, 2 * kLanes)); // expect: WL002
    if (threadIdx.x % kLanes == 0)
        out[row] = m;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "row_groups_butterfly_across_rows";

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
    // 3 rows of 16 negative values, 8 lanes per row: lanes 24-31 of the
    // one warp have no row and return.
    const int rows = 3, items = 16;
    float h_in[rows * items], want[rows];
    for (int r = 0; r < rows; ++r) {
        want[r] = -1e30f;
        for (int i = 0; i < items; ++i) {
            h_in[r * items + i] = -1.0f - (float)((r * 7 + i * 5) % 23);
            if (h_in[r * items + i] > want[r]) want[r] = h_in[r * items + i];
        }
    }
    // The kernel means the max over each pair of rows (0-1, 2-3); row 3
    // does not exist, so row 2's pair is row 2 alone.
    want[0] = want[1] = want[0] > want[1] ? want[0] : want[1];
    float *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, rows * sizeof(float));
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int rep = 0; rep < hw_reps() && !wrong[0] && err == cudaSuccess; ++rep) {
        cudaMemset(d_out, 0, rows * sizeof(float));
        row_pair_max<2, 16><<<1, 32>>>(d_in, d_out, rows);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        float got[rows];
        cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost);
        for (int r = 0; r < rows && !wrong[0]; ++r)
            if (got[r] != want[r])
                snprintf(wrong, sizeof wrong, "row %d max %g want %g (rep %d)", r, got[r], want[r], rep);
    }
    return verdict(err, wrong);
}
