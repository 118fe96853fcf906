// Function objects passed as arguments, as `cg::reduce(tile, v, op)` and
// CUB's `Reduce(v, op)` take them: the callee calls its parameter, which
// runs the object's class's `operator()`.
// strict: WL002, WL007

#define FULL_MASK 0xffffffffu

struct WarpSum {
    __device__ float operator()(float v) const {
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_xor_sync(FULL_MASK, v, o);
        return v;
    }
};

struct WarpMax {
    __device__ float operator()(float v) const {
        for (int o = 16; o > 0; o >>= 1)
            v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, o));
        return v;
    }
};

// No warp primitive: nothing to reach.
struct Halve {
    __device__ float operator()(float v) const { return 0.5f * v; }
};

// A block-wide step.
struct BlockStage {
    __device__ void operator()(float *s) const {
        s[threadIdx.x] *= 2.0f;
        __syncthreads();
    }
};

template <class Op>
__device__ float apply_low_half(float v, Op op) {
    if ((threadIdx.x & 31) < 16)
        v = op(v); // expect: WL002
    return v;
}

template <class Op>
__device__ float apply_when(bool take, float v, const Op &op) {
    if (take)
        v = op(v); // expect: WL002
    return v;
}

template <class Op>
__device__ float apply_all(float v, Op op) {
    return op(v);
}

template <class Stage>
__device__ void stage_rows(float *s, int rows, Stage stage) {
    if (threadIdx.x < rows)
        stage(s); // expect: WL007
}

// A temporary: the low half runs a whole-warp sum.
__global__ void low_half_functor_sums(float *x) {
    x[threadIdx.x] = apply_low_half(x[threadIdx.x], WarpSum());
}

// A declared object, under a condition on a loaded float.
__global__ void positive_maxima(float *x) {
    float v = x[threadIdx.x];
    WarpMax max_of;
    x[threadIdx.x] = apply_when(v > 0.0f, v, max_of);
}

// A block barrier reached only by the first `rows` threads.
__global__ void staged_rows(float *x, int rows) {
    __shared__ float s[128];
    s[threadIdx.x] = x[threadIdx.x];
    stage_rows(s, rows, BlockStage());
    x[threadIdx.x] = s[threadIdx.x];
}

// Look-alike: every lane runs the sum.
__global__ void whole_warp_sums(float *x) {
    x[threadIdx.x] = apply_all(x[threadIdx.x], WarpSum());
}

// Look-alike: the low half runs an object with no warp primitive.
__global__ void low_half_halves(float *x) {
    x[threadIdx.x] = apply_low_half(x[threadIdx.x], Halve());
}

// Look-alike: the condition is the same for the whole block.
__global__ void block_positive_maxima(float *x, float bias) {
    float v = x[threadIdx.x];
    x[threadIdx.x] = apply_when(bias > 0.0f, v, WarpMax());
}

void launch_all(float *x, int rows) {
    low_half_functor_sums<<<4, 128>>>(x);
    positive_maxima<<<4, 128>>>(x);
    staged_rows<<<4, 128>>>(x, rows);
    whole_warp_sums<<<4, 128>>>(x);
    low_half_halves<<<4, 128>>>(x);
    block_positive_maxima<<<4, 128>>>(x, 1.0f);
}
