// Block barriers reached by only some threads.
__device__ void stage_barrier(float *tile) {
    __syncthreads();
    tile[threadIdx.x] *= 2.0f;
}

__global__ void half_block(float *data) {
    __shared__ float tile[128];
    tile[threadIdx.x] = data[threadIdx.x];
    if (threadIdx.x < 16) {
        __syncthreads(); // expect: WL007
    }
    data[threadIdx.x] = tile[127 - threadIdx.x];
}

__global__ void both_arms(float *data) {
    __shared__ float tile[128];
    int t = threadIdx.x;
    if (t % 2) {
        tile[t] = data[t];
        __syncthreads(); // expect: WL007
    } else {
        tile[t] = -data[t];
        __syncthreads(); // expect: WL007
    }
    // Neither arm's barrier orders the other arm's writes.
    data[t] = tile[t ^ 1]; // expect: WL004
}

__global__ void after_return(float *data, int n) {
    __shared__ float tile[128];
    int i = threadIdx.x;
    if (i >= n) return;
    tile[i] = data[i];
    __syncthreads(); // expect: WL007
    data[i] = tile[n - 1 - i];
}

__global__ void warp_split(float *data) {
    __shared__ float tile[128];
    tile[threadIdx.x] = data[threadIdx.x];
    if (threadIdx.x < 64) {
        stage_barrier(tile); // expect: WL007
    }
    data[threadIdx.x] = tile[threadIdx.x];
}

__global__ void counted(const int *flags, int *out) {
    int t = threadIdx.x;
    int c = 0;
    if (flags[t] > 0) c = __syncthreads_count(flags[t] > 1); // expect: WL007
    __syncthreads();
    out[t] = c;
}

void launch(float *a, const int *f, int *o) {
    half_block<<<1, 128>>>(a);
    both_arms<<<1, 128>>>(a);
    after_return<<<1, 128>>>(a, 100);
    warp_split<<<1, 128>>>(a);
    counted<<<1, 128>>>(f, o);
}
