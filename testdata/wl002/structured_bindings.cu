// Structured bindings (`auto [rows, cols] = shape;`), as CuTe-era kernels
// unpack problem shapes and coordinates: each name is as uniform as the
// value it is bound from.
// strict: WL002, WL007

struct Pair {
    int first;
    int second;
};

// Each thread's own element decides: lanes whose `count` is 0 skip the
// broadcast.
__global__ void per_thread_pair_decides(const Pair *pairs, int *out) {
    auto [count, value] = pairs[threadIdx.x];
    int v = value;
    if (count > 0)
        v = __shfl_sync(0xffffffffu, v, 0); // expect: WL002
    out[threadIdx.x] = v;
}

// Look-alike: the block's element, the same in every lane.
__global__ void block_pair_decides(const Pair *pairs, int *out) {
    const auto &[count, value] = pairs[blockIdx.x];
    int v = out[threadIdx.x];
    if (count > 0)
        v = __shfl_sync(0xffffffffu, v, 0);
    out[threadIdx.x] = v + value;
}

// Look-alike: loops over a shape unpacked from a kernel parameter run the
// same trips in every thread, so each barrier is reached by all.
__global__ void shape_loops_with_barriers(Pair shape, float *data) {
    __shared__ float tile[128];
    auto [rows, cols] = shape;
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        tile[threadIdx.x] = data[r * 128 + threadIdx.x];
        __syncthreads();
        for (int c = 0; c < cols; ++c)
            data[r * 128 + threadIdx.x] += tile[(threadIdx.x + c) % 128];
        __syncthreads();
    }
}
