// A `while` on a block-shared flag around barriers is uniform (clean); one
// on a per-thread value is not (finding).

__global__ void until_converged(float *data, int max_rounds) {
    __shared__ int again;
    if (threadIdx.x == 0) again = 1;
    __syncthreads();
    int round = 0;
    while (again && round < max_rounds) {
        __syncthreads();
        if (threadIdx.x == 0) again = data[round] > 0.5f;
        data[threadIdx.x] *= 0.5f;
        ++round;
        __syncthreads();
    }
}

__global__ void until_own_value_small(float *data) {
    float v = data[threadIdx.x];
    while (v > 1.0f) {
        v *= 0.5f;
        __syncthreads(); // expect: WL007
    }
    data[threadIdx.x] = v;
}
