// Reduced from a paged-attention loader: a file that says `using namespace
// cute;` writes CuTe's shape queries unscoped. A thread's partition of a
// tile has the same shape in every thread, so `i < size(frag)` ends the
// loop at the same iteration in every lane, and the full-mask shuffle in
// it is reached by the whole warp. Clean.
// strict: WL002
#include <cute/tensor.hpp>
using namespace cute;

template <class Copy, class Tile>
__global__ void gather_rows(Copy copy, Tile tile, const long *offsets, float *out) {
    auto frag = copy.get_slice(threadIdx.x).partition_S(tile);
    long mine = offsets[threadIdx.x];
    for (int i = 0; i < size(frag); ++i) {
        long base = __shfl_sync(0xffffffffu, mine, i % 32);
        out[base + threadIdx.x] = 0.f;
    }
}

// The same loop bounded by something per thread: only the lanes with
// more work keep shuffling.
template <class Copy, class Tile>
__global__ void gather_rows_ragged(Copy copy, Tile tile, const long *offsets, const int *counts,
                                   float *out) {
    long mine = offsets[threadIdx.x];
    for (int i = 0; i < counts[threadIdx.x]; ++i) {
        long base = __shfl_sync(0xffffffffu, mine, i % 32); // expect: WL002
        out[base + threadIdx.x] = 0.f;
    }
}
