// A narrowed constant mask where no condition on the way to the call
// differs between the lanes of a warp: every lane reaches it whenever one
// does, and lanes 16-31 call it outside their own mask. The lanes' data
// differs (a weight from another file), but only values depend on it, not
// the path.

__device__ float weight_of(int i); // defined in another translation unit

__global__ void gathered_pair_sums(const int *index, const float *in, float *out, int rows) {
    if (blockIdx.x >= rows) {
        return; // the whole block leaves together
    }
    int i = index[blockIdx.x * blockDim.x + threadIdx.x];
    float v = weight_of(i) > 0.5f ? in[i] : 0.0f;
    v += __shfl_xor_sync(0x0000ffffu, v, 8); // expect: WL006
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Look-alike: the same reduction where only lanes 0-15 get there.
__global__ void gathered_half_warp_sums(const int *index, const float *in, float *out, int rows) {
    int lane = threadIdx.x % 32;
    if (blockIdx.x >= rows || lane >= 16) {
        return;
    }
    int i = index[blockIdx.x * blockDim.x + threadIdx.x];
    float v = weight_of(i) > 0.5f ? in[i] : 0.0f;
    v += __shfl_xor_sync(0x0000ffffu, v, 8);
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

void launch(const int *x, const float *a, float *b, int r) {
    gathered_pair_sums<<<r, 128>>>(x, a, b, r);
    gathered_half_warp_sums<<<r, 128>>>(x, a, b, r);
}
