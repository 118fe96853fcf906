// Lambdas and member functions that run warp primitives.

// Runs `body` over a block-stride loop: on the last, ragged pass only the
// threads with `i < n` call it, so a full-mask shuffle in a lambda passed
// here names lanes that have left the loop.
template <typename F>
__device__ void for_each_lane(int n, F body) {
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        body(i); // expect: WL002
}

// An extended device lambda with a full-mask shuffle under a lane test.
__global__ void lambda_shuffle_divergent(const int *in, int *out, int n) {
    auto step = [=] __device__ (int tid) {
        int v = in[tid];
        if (threadIdx.x % 32 < 16)
            v += __shfl_down_sync(0xffffffffu, v, 16); // expect: WL002
        out[tid] = v;
    };
    for_each_lane(n, step);
}

// The same lambda with the shuffle outside the lane test: the lambda itself
// is clean (the helper's ragged pass is the finding above).
__global__ void lambda_shuffle_converged(const int *in, int *out, int n) {
    auto step = [=] __device__ (int tid) {
        int v = in[tid];
        int up = __shfl_down_sync(0xffffffffu, v, 16);
        if (threadIdx.x % 32 < 16)
            v += up;
        out[tid] = v;
    };
    for_each_lane(n, step);
}

class WarpTotals {
  public:
    __device__ explicit WarpTotals(int *sink) : sink_(sink), lane_(threadIdx.x & 31) {}

    __device__ int reduce(int v) {
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, o);
        return v;
    }

    // The whole-warp reduction is called by half of the warp only.
    __device__ void add_low_half(int v) {
        if (lane_ < 16)
            sink_[0] = this->reduce(v); // expect: WL002
    }

    // Every lane reduces; only the leader stores: clean.
    __device__ void add_all(int v) {
        int total = reduce(v);
        if (lane_ == 0)
            sink_[0] = total;
    }

  private:
    int *sink_;
    unsigned lane_;
};

__global__ void use_totals(const int *in, int *out) {
    WarpTotals t(out);
    t.add_low_half(in[threadIdx.x]);
    t.add_all(in[threadIdx.x]);
}
