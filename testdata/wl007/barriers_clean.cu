// Barriers every thread reaches; conditions uniform for the block.
__global__ void uniform_conditions(float *data, int rounds, int n) {
    __shared__ float tile[128];
    tile[threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    if (blockIdx.x == 0) {
        __syncthreads();
    }
    for (int r = 0; r < rounds; ++r) {
        tile[threadIdx.x] += 1.0f;
        __syncthreads();
    }
    if (n > 16) __syncthreads();
    if (threadIdx.x < n) data[threadIdx.x] = tile[threadIdx.x];
}

void launch(float *a) {
    uniform_conditions<<<4, 128>>>(a, 3, 20);
}
