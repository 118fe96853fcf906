// A grid-stride loop around a block barrier runs the same number of times
// in every thread of a block exactly when its bound is a whole number of
// blocks. Host code usually checks that (`hidden % 128 == 0`) where the
// kernel cannot see it; an assertion at the top of the kernel states it
// where warplint can, and the loop is then block-uniform.
// strict: WL007

#include <cassert>

struct RowArgs {
    int width;
    float *dst;
};

// Nothing states the width: the last block's tail threads leave the loop
// while the others wait at the barrier.
__global__ void scale_tail(RowArgs args) {
    __shared__ float scale;
    for (int i = threadIdx.x + blockDim.x * blockIdx.x; i < args.width;
         i += blockDim.x * gridDim.x) {
        if (threadIdx.x == 0) scale = 0.5f;
        __syncthreads(); // expect: WL007
        args.dst[i] *= scale;
        __syncthreads(); // expect: WL007
    }
}

// Look-alike: the width is asserted to be a whole number of blocks.
__global__ void scale_whole_blocks(RowArgs args) {
    assert(args.width % blockDim.x == 0);
    __shared__ float scale;
    for (int i = threadIdx.x + blockDim.x * blockIdx.x; i < args.width;
         i += blockDim.x * gridDim.x) {
        if (threadIdx.x == 0) scale = 0.5f;
        __syncthreads();
        args.dst[i] *= scale;
        __syncthreads();
    }
}

// Look-alike: a multiple of 256 with every launch 128 threads wide.
__global__ void scale_asserted_256(RowArgs args) {
    __builtin_assume(args.width % 256 == 0);
    __shared__ float scale;
    for (int i = threadIdx.x + blockDim.x * blockIdx.x; i < args.width;
         i += blockDim.x * gridDim.x) {
        if (threadIdx.x == 0) scale = 0.5f;
        __syncthreads();
        args.dst[i] *= scale;
        __syncthreads();
    }
}

// A multiple of 64 is not a whole number of 128-thread blocks: a width of
// 64 leaves threads 64-127 out of every test.
__global__ void scale_asserted_64(RowArgs args) {
    assert(args.width % 64 == 0);
    __shared__ float scale;
    for (int i = threadIdx.x + blockDim.x * blockIdx.x; i < args.width;
         i += blockDim.x * gridDim.x) {
        if (threadIdx.x == 0) scale = 0.5f;
        __syncthreads(); // expect: WL007
        args.dst[i] *= scale;
        __syncthreads(); // expect: WL007
    }
}

// An assertion after the loop says nothing about it.
__global__ void scale_checked_late(RowArgs args) {
    __shared__ float scale;
    for (int i = threadIdx.x + blockDim.x * blockIdx.x; i < args.width;
         i += blockDim.x * gridDim.x) {
        if (threadIdx.x == 0) scale = 0.5f;
        __syncthreads(); // expect: WL007
        args.dst[i] *= scale;
    }
    assert(args.width % blockDim.x == 0);
}

void launch_all(RowArgs args) {
    scale_tail<<<64, 128>>>(args);
    scale_whole_blocks<<<64, 128>>>(args);
    scale_asserted_256<<<64, 128>>>(args);
    scale_asserted_64<<<64, 128>>>(args);
    scale_checked_late<<<64, 128>>>(args);
}
