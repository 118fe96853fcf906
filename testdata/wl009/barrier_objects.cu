// A named barrier kept as an object, in the shape GEMM libraries write it:
// the constructor takes the thread count and a user id, and offsets the id
// past the ids the library reserves. The count and the id are the fields'
// values for each object the kernel constructs.
// strict: WL009

struct GroupBarrier {
    static constexpr unsigned kReservedIds = 8;
    unsigned const threads_;
    unsigned const id_;
    __device__ GroupBarrier(unsigned threads, unsigned id = 0)
        : threads_(threads), id_(id + kReservedIds) {}
    __device__ void arrive_and_wait() const {
        asm volatile("bar.sync %0, %1;" ::"r"(id_), "r"(threads_) : "memory");
    }
};

// The barrier is sized for the whole 256-thread launch, but only the first
// four warps ever use it.
__global__ void stage_partials(const float *in, float *out) {
    __shared__ float partial[128];
    int t = threadIdx.x;
    if (t < 128) {
        GroupBarrier rows(256, 1);
        partial[t] = in[blockIdx.x * 128 + t];
        rows.arrive_and_wait(); // expect: WL009
        out[blockIdx.x * 128 + t] = partial[t] + partial[t ^ 64];
    }
}

// Look-alike: sized for the four warps that use it.
__global__ void stage_partials_counted(const float *in, float *out) {
    __shared__ float partial[128];
    int t = threadIdx.x;
    if (t < 128) {
        GroupBarrier rows(128, 1);
        partial[t] = in[blockIdx.x * 128 + t];
        rows.arrive_and_wait();
        out[blockIdx.x * 128 + t] = partial[t] + partial[t ^ 64];
    }
}

void launch(const float *in, float *out) {
    stage_partials<<<4, 256>>>(in, out);
    stage_partials_counted<<<1, 256>>>(in, out);
}
