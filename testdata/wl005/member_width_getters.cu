// Look-alike: a member calls its own class's `width()`, not the file's
// constant `constexpr` function of that name. Unqualified in a member,
// C++ finds the member first; the free function's 12 is not this
// shuffle's width (the row's 16 is).
constexpr int width() { return 12; }

struct MwRow {
    int w;
    __device__ int width() const { return w; }
    __device__ float broadcast(float v) const {
        return __shfl_sync(0xffffffffu, v, 0, width());
    }
};

__global__ void mw_row_kernel(float *out) {
    MwRow row{16};
    out[threadIdx.x] = row.broadcast(out[threadIdx.x]);
}
