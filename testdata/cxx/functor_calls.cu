// Function objects called by name: `sum(v)` on a local object, and
// `WarpSum()(v)` on a temporary, run the class's `operator()`.

struct WarpSum {
    __device__ float operator()(float v) const {
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, o);
        return v;
    }
};

struct StageThroughShared {
    float *tile;
    __device__ explicit StageThroughShared(float *t) : tile(t) {}
    __device__ float operator()(float v) {
        tile[threadIdx.x] = v;
        __syncthreads();
        return tile[blockDim.x - 1 - threadIdx.x];
    }
};

// Half of each warp calls the whole-warp sum through a local object.
__global__ void object_under_lane_test(float *out) {
    WarpSum sum;
    float v = out[threadIdx.x];
    if (threadIdx.x % 32 < 16)
        v = sum(v); // expect: WL002
    out[threadIdx.x] = v;
}

// The same through a temporary.
__global__ void temporary_under_lane_test(float *out) {
    float v = out[threadIdx.x];
    if (threadIdx.x % 32 < 16)
        v = WarpSum()(v); // expect: WL002
    out[threadIdx.x] = v;
}

// Every lane calls it: clean.
__global__ void object_for_all(float *out) {
    WarpSum sum;
    out[threadIdx.x] = sum(out[threadIdx.x]);
}

// A block barrier inside `operator()`, reached by the threads below `n`.
__global__ void barrier_object_some(float *out, int n) {
    __shared__ float tile[256];
    StageThroughShared stage(tile);
    float v = out[threadIdx.x];
    if (threadIdx.x < n)
        v = stage(v); // expect: WL007
    out[threadIdx.x] = v;
}

// Every thread reaches it: clean.
__global__ void barrier_object_all(float *out) {
    __shared__ float tile[256];
    StageThroughShared stage(tile);
    out[threadIdx.x] = stage(out[threadIdx.x]);
}
