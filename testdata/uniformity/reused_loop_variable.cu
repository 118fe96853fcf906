// Two loops reuse the name `i`. The first is a grid-stride loop over the
// thread's elements (its `i` differs per thread); the second walks the
// threads of the block in turn, and its `i` is the same for every thread,
// so its barrier is reached by all of them the same number of times. Each
// declaration is its own variable.
__global__ void turn_by_turn_max(const float *x, float *out, int count) {
    __shared__ float best;
    float mine = 0.0f;
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < count; i += blockDim.x * gridDim.x)
        mine = fmaxf(mine, x[i]);
    for (int i = 0; i < blockDim.x; i++) {
        if (i == threadIdx.x)
            best = i == 0 ? mine : fmaxf(best, mine);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = best;
}

// The look-alike: here the second loop's bound is the thread's own index,
// so threads leave it after different numbers of barriers.
__global__ void turn_by_turn_wrong(const float *x, float *out, int count) {
    __shared__ float best;
    float mine = 0.0f;
    for (int i = threadIdx.x; i < count; i += blockDim.x)
        mine = fmaxf(mine, x[i]);
    for (int i = 0; i < threadIdx.x; i++) {
        best = fmaxf(best, mine);
        __syncthreads(); // expect: WL007
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = best;
}
