// A kernel of one row per warp-wide row of the block, whose launch is not
// in view: lanes past the last row return before a helper's full-mask
// reduction. The return is on `threadIdx.y`, which splits a warp only
// when the block is narrower than 32 (or not a multiple of it), and
// nothing here states the block's width: the code itself does not show
// lanes of a warp diverging. So the finding is a candidate that only a run
// under a stated shape can confirm, not evidence shown by default (ggml's
// kernels launched with `dim3(32, nwarps)` through launch helpers: 10
// findings on held-out llama.cpp, where no run got as far as the call).

__device__ float row_sum(float v) {
    for (int step = 16; step > 0; step >>= 1) v += __shfl_xor_sync(0xffffffffu, v, step);
    return v;
}

__global__ void row_norms_unlaunched(const float *x, float *norms, int rows, int cols) {
    const int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row >= rows) return;
    float s = 0.0f;
    // Longer than the executor unrolls: no run gets past it.
    for (int c = threadIdx.x; c < 128 * 32; c += 32) s += x[row * cols + c] * x[row * cols + c];
    s = row_sum(s);
    if (threadIdx.x == 0) norms[row] = sqrtf(s);
}

// The same sum under a row guard, launched with rows half a warp wide:
// each warp holds two rows, and in the last block the lanes of a row past
// the end skip the sum that names them while their warp's other row sums.
__global__ void row_norms_half_rows(const float *x, float *norms, int rows, int cols) {
    const int row = blockIdx.x * blockDim.y + threadIdx.y;
    float s = 0.0f;
    if (row < rows) {
        for (int c = threadIdx.x; c < cols; c += 16) s += x[row * cols + c] * x[row * cols + c];
        s = row_sum(s); // expect: WL002
    }
    if (row < rows && threadIdx.x == 0) norms[row] = sqrtf(s);
}

// A block barrier after odd rows return: with whole-warp rows, whole warps
// leave the kernel, which a barrier does not wait for; only rows narrower
// than a warp leave part of one behind.
__global__ void even_rows_unlaunched(const float *x, float *out, int cols) {
    __shared__ float partial[64];
    const int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (threadIdx.y % 2 != 0) {
        out[row] = x[row];
        return;
    }
    float s = 0.0f;
    // Longer than the executor unrolls: no run gets past it.
    for (int c = threadIdx.x; c < 128 * 32; c += 32) s += x[row * cols + c] * x[row * cols + c];
    if (threadIdx.x == 0) partial[threadIdx.y] = s;
    __syncthreads();
    if (threadIdx.x == 0) out[row] = partial[threadIdx.y] + partial[0];
}

// The same with rows half a warp wide: the odd row of each warp leaves,
// the even one waits.
__global__ void even_rows_half(const float *x, float *out) {
    __shared__ float partial[64];
    if (threadIdx.y % 2 != 0) {
        out[threadIdx.y] = x[threadIdx.y];
        return;
    }
    if (threadIdx.x == 0) partial[threadIdx.y] = x[threadIdx.y];
    __syncthreads(); // expect: WL007
    if (threadIdx.x == 0) out[threadIdx.y] = partial[threadIdx.y] + partial[0];
}

void launch_half_rows(const float *x, float *norms, int rows, int cols) {
    row_norms_half_rows<<<(rows + 7) / 8, dim3(16, 8)>>>(x, norms, rows, cols);
    even_rows_half<<<1, dim3(16, 8)>>>(x, norms);
}
