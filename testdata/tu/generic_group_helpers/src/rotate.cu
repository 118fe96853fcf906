// strict: WL002 WL007
#include <groupkit/collectives.cuh>

// Only the threads inside the array rotate: with `n` not a multiple of the
// block, the block barrier in `exchange_with_next` waits forever.
__global__ void rotate_block_tail(int *data, int n) {
    extern __shared__ int slots[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        data[i] = groupkit::exchange_with_next(cg::this_thread_block(), slots, data[i]); // expect: WL007
    }
}

// Look-alike: every thread rotates, the bound only guards the memory.
__global__ void rotate_block_all(int *data, int n) {
    extern __shared__ int slots[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = groupkit::exchange_with_next(cg::this_thread_block(), slots, i < n ? data[i] : 0);
    if (i < n) {
        data[i] = v;
    }
}

// Look-alike: a warp-sized tile, rotated by whole warps only.
__global__ void rotate_warps(int *data, int warps) {
    __shared__ int slots[1024];
    auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    if (threadIdx.x / 32 < warps) {
        int base = threadIdx.x / 32 * 32;
        data[threadIdx.x] = groupkit::exchange_with_next(warp, slots + base, data[threadIdx.x]);
    }
}
