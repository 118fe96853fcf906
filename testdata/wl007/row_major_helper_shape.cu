// The block shape runs assume follows what the kernel reads: reading
// threadIdx.y makes it 2-D (16 x 16, 32 x 8). A row-major index helper
// (`threadIdx.x + (rows == 1 ? 0 : threadIdx.y * cols)`, as CUB's
// `RowMajorTid` that every block-wide collective's constructor calls) reads
// threadIdx.y only for a 2-D instance, and linearizes a 1-D block as well:
// it does not make the kernel 2-D. Before, a kernel that merely
// constructed such a collective ran as 2-D only, where `threadIdx.x % 64
// < 32` holds in every thread, and its divergent barrier was missed.
// strict: WL007

__device__ __forceinline__ int linear_index(int cols, int rows) {
  return ((rows == 1) ? 0 : (threadIdx.y * cols)) + threadIdx.x;
}

template <int Cols, int Rows = 1>
struct BlockStage {
  float* slots;
  int tid;
  __device__ explicit BlockStage(float* s) : slots(s), tid(linear_index(Cols, Rows)) {}
  __device__ void put(float v) { slots[tid] = v; }
};

// Threads 32-63 and 96-127 of a 128-thread block skip the barrier.
__global__ void half_the_warps(float* out) {
  __shared__ float slots[128];
  BlockStage<128> stage(slots);
  stage.put(out[threadIdx.x]);
  if (threadIdx.x % 64 < 32) {
    __syncthreads(); // expect: WL007
  }
  out[threadIdx.x] = slots[127 - threadIdx.x];
}

// Look-alike: every thread reaches the barrier.
__global__ void every_warp(float* out) {
  __shared__ float slots[128];
  BlockStage<128> stage(slots);
  stage.put(out[threadIdx.x]);
  __syncthreads();
  out[threadIdx.x] = slots[127 - threadIdx.x];
}
