// strict: WL002, WL007
// "Last block to retire" epilogue: thread 0 counts finished blocks and
// sets a flag; `__syncthreads_or` then hands the flag to the whole block.
// The assignment from the vote replaces every earlier value of the flag
// (it is a statement of the list that declares it), so the flag is
// block-uniform after it and the epilogue's barriers are reached by all.
// The look-alike never broadcasts the flag: only thread 0 can see it set,
// so only thread 0 of the last block reaches the epilogue's barrier.
__global__ void retire_then_finish(unsigned *retired, const float *partial, float *out) {
    __shared__ float scratch[128];
    bool last = false;
    if (threadIdx.x == 0) {
        unsigned before = atomicAdd(retired, 1u);
        last = before == gridDim.x - 1;
    }
    last = __syncthreads_or(last);
    if (!last)
        return;
    scratch[threadIdx.x] = partial[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = scratch[127 - threadIdx.x];
}

__global__ void retire_without_broadcast(unsigned *retired, const float *partial, float *out) {
    __shared__ float scratch[128];
    bool last = false;
    if (threadIdx.x == 0) {
        unsigned before = atomicAdd(retired, 1u);
        last = before == gridDim.x - 1;
    }
    __syncthreads();
    if (!last)
        return;
    scratch[threadIdx.x] = partial[threadIdx.x];
    __syncthreads(); // expect: WL007
    out[threadIdx.x] = scratch[127 - threadIdx.x];
}
