#include <tilekit/reduce.cuh>

// Rows of 8 values, one 8-thread tile per row; only rows with data reduce,
// and the bound can cut a tile in two.
__global__ void row_totals(const float *in, float *out, int n) {
    auto row = cg::tiled_partition<8>(cg::this_thread_block());
    float v = in[threadIdx.x];
    if (threadIdx.x < n) {
        v = tile_total<8>(row, v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// A whole warp's total, taken by the lanes whose value is positive only.
__global__ void positive_totals(const float *in, float *out) {
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    float v = in[threadIdx.x];
    if (v > 0.0f) {
        v = warp_total(warp, v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// The look-alikes: every thread reduces; the condition only picks results.
__global__ void row_totals_all(const float *in, float *out, int n) {
    auto row = cg::tiled_partition<8>(cg::this_thread_block());
    float v = in[threadIdx.x];
    float total = tile_total<8>(row, threadIdx.x < n ? v : 0.0f);
    out[threadIdx.x] = total;
}

__global__ void positive_totals_all(const float *in, float *out) {
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    float v = in[threadIdx.x];
    float total = warp_total(warp, v > 0.0f ? v : 0.0f);
    out[threadIdx.x] = total;
}

void launch(const float *in, float *out, int n) {
    row_totals<<<1, 64>>>(in, out, n);
    positive_totals<<<1, 64>>>(in, out);
    row_totals_all<<<1, 64>>>(in, out, n);
    positive_totals_all<<<1, 64>>>(in, out);
}
