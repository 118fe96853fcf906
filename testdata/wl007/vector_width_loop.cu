// A norm kernel that walks the row in vectors of 16 bytes: each thread
// starts at `threadIdx.x * VEC` and steps by the block's width in vectors.
// When the row is shorter than the block times VEC, some threads never
// enter the loop, or leave it one trip early, while the rest call the
// block-wide sum, whose shuffles name every lane and whose barrier waits
// for every thread. VEC is `16 / sizeof(T)`: the run picks a size for the
// template type and says so in its witness.
// strict: WL002, WL007

__device__ float row_total(float v) {
    __shared__ float per_warp[32];
    for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) per_warp[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32 ? per_warp[threadIdx.x] : 0.0f;
    for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffffu, v, d);
    return v;
}

template <typename T>
__global__ void rms_rows(const T *x, T *y, int width, float eps) {
    constexpr unsigned VEC = 16 / sizeof(T);
    const T *row = x + blockIdx.x * width;
    float sq = 0.0f;
    for (int col = threadIdx.x * VEC; col < width; col += blockDim.x * VEC) {
        float v = (float)row[col];
        sq += v * v;
        float total = row_total(sq); // expect: WL002, WL007
        y[blockIdx.x * width + col] = (T)(v * rsqrtf(total / width + eps));
    }
}

// Look-alike: the sum runs after the loop, where every thread arrives.
template <typename T>
__global__ void rms_rows_after_loop(const T *x, T *y, int width, float eps) {
    constexpr unsigned VEC = 16 / sizeof(T);
    const T *row = x + blockIdx.x * width;
    float sq = 0.0f;
    for (int col = threadIdx.x * VEC; col < width; col += blockDim.x * VEC) {
        float v = (float)row[col];
        sq += v * v;
    }
    float scale = rsqrtf(row_total(sq) / width + eps);
    for (int col = threadIdx.x * VEC; col < width; col += blockDim.x * VEC) {
        y[blockIdx.x * width + col] = (T)((float)row[col] * scale);
    }
}
