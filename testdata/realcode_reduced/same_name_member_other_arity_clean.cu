// Two agent classes each have a member called `run`. The init kernel
// calls the three-argument one with a per-thread index; the tile agent's
// two-argument `run`, whose barrier sits under a branch on its tile index,
// is only ever called with `blockIdx.x`. A call must not be taken for a
// same-named function that cannot take its arguments.
struct InitAgent {
    __device__ static void run(int idx, int *flags, int n) {
        if (idx < n)
            flags[idx] = 0;
    }
};

struct TileAgent {
    int *tile_sums;
    __device__ void run(int tile, int *data) {
        __shared__ int partial[128];
        partial[threadIdx.x] = data[tile * 128 + threadIdx.x];
        if (tile == 0) {
            __syncthreads();
            partial[threadIdx.x] *= 2;
        }
        __syncthreads();
        if (threadIdx.x == 0)
            tile_sums[tile] = partial[0];
    }
};

__global__ void init_kernel(int *flags, int n) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    InitAgent::run(idx, flags, n);
}

__global__ void tile_kernel(int *data, int *sums) {
    TileAgent agent{sums};
    agent.run(blockIdx.x, data);
}
