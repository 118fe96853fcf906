// A scalar in a `__shared__` struct that one thread picks, read by every
// thread after a barrier: one location, so one value for the block. Top-k
// kernels reach it through a reference parameter and a local reference
// (`Scratch& scratch`, `auto& pick = scratch.pick;`), written by the one
// selecting thread inside a callback lambda and in a branch (vLLM's
// persistent top-k: 11 false WL007/WL002 findings on held-out code). The
// look-alikes copy the field into a local the thread then changes alone,
// and do split the block.
// strict: WL007

struct Scratch {
    int pick;
    int counts[257];
};

template <typename OnPick>
__device__ void select_bin(const int *counts, int want, OnPick on_pick) {
    const int tid = threadIdx.x;
    if (tid < 256 && counts[tid] >= want && counts[tid + 1] < want) {
        on_pick(tid);
    }
    __syncthreads();
}

__device__ void refine_with_reference(const float *in, int *out, Scratch &scratch, int want) {
    auto &pick = scratch.pick;
    const int tid = threadIdx.x;
    select_bin(scratch.counts, want, [&](int bin) { pick = bin; });
    const int chosen = pick;
    want -= scratch.counts[chosen + 1];
    if (want == 0) {
        __syncthreads();
        out[blockIdx.x] = chosen;
        return;
    }
    if (tid < 256 && scratch.counts[tid] > want && scratch.counts[tid + 1] <= want) {
        pick = tid;
    }
    __syncthreads();
    if (scratch.counts[pick] > 4) {
        __syncthreads();
    }
    out[tid] = pick + static_cast<int>(in[tid]);
}

__global__ void __launch_bounds__(256) topk_by_reference(const float *in, int *out, int want) {
    __shared__ Scratch scratch;
    refine_with_reference(in, out, scratch, want);
}

// A copy of the field: the thread that changes it alone holds another
// value than the rest.
__device__ void refine_with_copy(int *out, Scratch &scratch) {
    const int tid = threadIdx.x;
    int chosen = scratch.pick;
    if (scratch.counts[tid] > 7) chosen = tid;
    if (chosen > 2) {
        __syncthreads(); // expect: WL007
    }
    out[tid] = chosen;
}

__global__ void __launch_bounds__(256) topk_by_copy(int *out) {
    __shared__ Scratch scratch;
    refine_with_copy(out, scratch);
}

// The same copy in the kernel itself.
__global__ void __launch_bounds__(256) topk_copy_in_kernel(int *out) {
    __shared__ Scratch scratch;
    const int tid = threadIdx.x;
    int chosen = scratch.pick;
    if (scratch.counts[tid] > 7) chosen = tid;
    if (chosen > 2) {
        __syncthreads(); // expect: WL007
    }
    out[tid] = chosen;
}

// And a copy of a plain `__shared__` scalar.
__global__ void __launch_bounds__(256) topk_copy_of_scalar(int *out, const int *counts) {
    __shared__ int pick;
    const int tid = threadIdx.x;
    if (tid == 0) pick = counts[blockIdx.x];
    __syncthreads();
    int chosen = pick;
    if (counts[tid] > 7) chosen = tid;
    if (chosen > 2) {
        __syncthreads(); // expect: WL007
    }
    out[tid] = chosen;
}

// Read straight from the scalar after the barrier: one value.
__global__ void __launch_bounds__(256) topk_read_of_scalar(int *out, const int *counts) {
    __shared__ int pick;
    const int tid = threadIdx.x;
    if (counts[tid] == blockIdx.x) pick = tid;
    __syncthreads();
    if (pick > 2) {
        __syncthreads();
    }
    out[tid] = pick;
}
