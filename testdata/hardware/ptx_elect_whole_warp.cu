// Hardware case: the correct look-alike of ptx_elect_lane_zero (outcome on
// the GPU: see results.toml). Each warp counts its positive values with a
// whole-warp ballot, then every lane calls a helper that elects a leader
// with `elect.sync _|p, 0xffffffff` (sm_90), and only the elected lane
// publishes the count. Correct by the PTX ISA: every lane of the
// membermask executes the elect.sync, which picks exactly one of them.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ __forceinline__ bool elect_one_lane()
{
    unsigned elected = 0;
    asm volatile("{\n\t"
                 ".reg .pred %%px;\n\t"
                 "elect.sync _|%%px, %1;\n\t"
                 "@%%px mov.u32 %0, 1;\n\t"
                 "}"
                 : "+r"(elected)
                 : "r"(0xffffffffu));
    return elected != 0;
}

__global__ void tally_positive_elected(const int *in, int *warp_counts, int *publishers, int *leaders, int *total)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = i / 32;
    unsigned positive = __ballot_sync(0xffffffff, in[i] > 0);
    int count = __popc(positive);
    if (elect_one_lane()) {
        warp_counts[warp] = count;
        atomicAdd(&publishers[warp], 1);
        leaders[warp] = threadIdx.x & 31;
        atomicAdd(total, count);
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "ptx_elect_whole_warp";

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
    const int n = 512, warps = n / 32;
    int h_in[n], h_counts[warps], h_pub[warps], h_lead[warps], want_counts[warps], want_total = 0;
    unsigned elected_lanes = 0; // every lane that was elected, for information
    for (int i = 0; i < n; ++i)
        h_in[i] = (i * 37 + 11) % 19 - 7;
    for (int w = 0; w < warps; ++w) {
        want_counts[w] = 0;
        for (int l = 0; l < 32; ++l)
            want_counts[w] += h_in[w * 32 + l] > 0;
        want_total += want_counts[w];
    }
    int *d_in, *d_counts, *d_pub, *d_lead, *d_total;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_counts, sizeof h_counts);
    cudaMalloc(&d_pub, sizeof h_pub);
    cudaMalloc(&d_lead, sizeof h_lead);
    cudaMalloc(&d_total, sizeof(int));
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_counts, 0xff, sizeof h_counts);
        cudaMemset(d_pub, 0, sizeof h_pub);
        cudaMemset(d_total, 0, sizeof(int));
        tally_positive_elected<<<4, 128>>>(d_in, d_counts, d_pub, d_lead, d_total);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        int got_total = 0;
        cudaMemcpy(h_counts, d_counts, sizeof h_counts, cudaMemcpyDeviceToHost);
        cudaMemcpy(h_pub, d_pub, sizeof h_pub, cudaMemcpyDeviceToHost);
        cudaMemcpy(h_lead, d_lead, sizeof h_lead, cudaMemcpyDeviceToHost);
        cudaMemcpy(&got_total, d_total, sizeof(int), cudaMemcpyDeviceToHost);
        int bad = 0, first = -1;
        for (int w = 0; w < warps; ++w)
            if (h_pub[w] == 1 && h_lead[w] >= 0 && h_lead[w] < 32)
                elected_lanes |= 1u << h_lead[w];
        for (int w = 0; w < warps; ++w)
            if (h_counts[w] != want_counts[w] || h_pub[w] != 1) {
                if (first < 0) first = w;
                ++bad;
            }
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d warps, count[%d]=%d want %d, %d publishers (rep %d)",
                     bad, warps, first, h_counts[first], want_counts[first], h_pub[first], r);
        else if (got_total != want_total)
            snprintf(wrong, sizeof wrong, "total %d want %d (rep %d)", got_total, want_total, r);
    }
    printf("info: elected lanes 0x%08x\n", elected_lanes);
    return verdict(err, wrong);
}
