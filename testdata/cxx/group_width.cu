// A width given as a template argument is checked where the template is
// instantiated.
template <int W>
__device__ int group_sum(int v) {
    for (int o = W / 2; o > 0; o /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, o, W);
    return v;
}

__global__ void sums_of_six(const int *in, int *out) {
    out[threadIdx.x] = group_sum<6>(in[threadIdx.x]); // expect: WL005
}

__global__ void sums_of_eight(const int *in, int *out) {
    out[threadIdx.x] = group_sum<8>(in[threadIdx.x]);
}

// A recursive step template, each step one instantiation deeper.
template <int STEP>
__device__ int fold_steps(int v) {
    v += __shfl_down_sync(0xffffffffu, v, STEP);
    if (STEP > 1)
        v = fold_steps<STEP / 2>(v);
    return v;
}

__global__ void folded(const int *in, int *out) {
    out[threadIdx.x] = fold_steps<16>(in[threadIdx.x]);
}
