// A kernel that reads threadIdx.y and is launched nowhere: nothing states
// its block's x extent. A branch on the row splits a warp only when rows
// are narrower than a warp (an x extent that is not a multiple of 32).
// Evaluated lane by lane under whole-warp rows, the mask names exactly the
// lanes that arrive, so the finding holds under one shape and not under
// another: shape-dependent, visible at --min-confidence all, not shown by
// default.
__global__ void rows_unstated(const float *in, float *out, int rows) {
    int i = threadIdx.y * blockDim.x + threadIdx.x;
    float v = in[i];
    if (threadIdx.y < rows) {
        v += __shfl_xor_sync(0xffffffffu, v, 1);
    }
    out[i] = v;
}

// The same kernel launched with 16-wide rows: each warp holds two rows, and
// the branch on the row splits it.
__global__ void rows_sixteen_wide(const float *in, float *out, int rows) {
    int i = threadIdx.y * blockDim.x + threadIdx.x;
    float v = in[i];
    if (threadIdx.y < rows) {
        v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
    }
    out[i] = v;
}

// A branch on the column splits a warp whatever the shape: shown.
__global__ void columns_unstated(const float *in, float *out, int cols) {
    int i = threadIdx.y * blockDim.x + threadIdx.x;
    float v = in[i];
    if (threadIdx.x < cols) {
        v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
    }
    out[i] = v;
}

void launch_rows(const float *in, float *out, int rows) {
    rows_sixteen_wide<<<1, dim3(16, 8)>>>(in, out, rows);
}
