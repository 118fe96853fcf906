// A kernel template with a `bool` switch: the residual path is compiled
// only when kAddResidual is false here, and that path waits at a barrier
// that only the threads inside the row reach. A run must try the flag
// both ways: `true` alone would never enter the faulty arm.
// strict: WL007

template <bool kAddResidual>
__global__ void scale_rows(float *out, const float *res, int width) {
    __shared__ float row_max[1];
    float v = out[blockIdx.x * blockDim.x + threadIdx.x];
    if constexpr (kAddResidual) {
        v += res[blockIdx.x * blockDim.x + threadIdx.x];
    } else {
        if (threadIdx.x < width) {
            if (threadIdx.x == 0) row_max[0] = v;
            __syncthreads(); // expect: WL007
            v /= row_max[0];
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Look-alike: the barrier sits outside the row guard in both arms.
template <bool kAddResidual>
__global__ void scale_rows_ok(float *out, const float *res, int width) {
    __shared__ float row_max[1];
    float v = out[blockIdx.x * blockDim.x + threadIdx.x];
    if constexpr (kAddResidual) {
        v += res[blockIdx.x * blockDim.x + threadIdx.x];
    } else {
        if (threadIdx.x == 0) row_max[0] = v;
        __syncthreads();
        if (threadIdx.x < width) v /= row_max[0];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
