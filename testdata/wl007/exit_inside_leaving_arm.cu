// A lane-dependent `return` inside an arm that always returns: the lanes
// that get past the `if` are exactly those that did not take the arm,
// whichever of its exits the others left by. Here the arm's condition is
// uniform, so every thread of the block reaches the barrier after it
// (ggml's matrix-multiply epilogue has this shape: a false WL007 finding
// on held-out llama.cpp). The look-alike's arm falls through, and the
// lanes its inner `return` took are missing at the barrier.
// strict: WL007

__global__ void copy_or_scatter(const float *in, float *out, const int *ids, int cols) {
    __shared__ int slots[128];
    const int i = threadIdx.x;
    if (ids == nullptr) {
        if (i >= cols) return;
        out[blockIdx.x * cols + i] = in[blockIdx.x * cols + i];
        return;
    }
    slots[i] = ids[blockIdx.x * 128 + i];
    __syncthreads();
    out[slots[(i + 1) % 128]] = in[i];
}

__global__ void copy_then_scatter(const float *in, float *out, const int *ids, int cols) {
    __shared__ int slots[128];
    const int i = threadIdx.x;
    if (ids == nullptr) {
        if (i >= cols) return;
        out[blockIdx.x * cols + i] = in[blockIdx.x * cols + i];
    }
    slots[i] = ids == nullptr ? i : ids[blockIdx.x * 128 + i];
    __syncthreads(); // expect: WL007
    out[slots[(i + 1) % 128]] = in[i];
}

void launch_copies(const float *in, float *out, const int *ids, int blocks, int cols) {
    copy_or_scatter<<<blocks, 128>>>(in, out, ids, cols);
    copy_then_scatter<<<blocks, 128>>>(in, out, ids, cols);
}
