// A library helper whose callers are not in view: its barrier sits under
// a branch on a parameter. Nothing in the code shows that parameter
// differing between threads (callers usually pass a tile or block index),
// so it is a speculative candidate, not a finding: shown only with
// `--min-confidence all`. The kernel below branches on the thread index
// itself: that is direct evidence, and a run shows it.
__device__ void stage_tile(int *smem, const int *src, int tile_idx) {
    if (tile_idx == 0) {
        smem[threadIdx.x] = src[threadIdx.x];
        __syncthreads();
    }
    __syncthreads();
}

__global__ void stage_half(int *dst, const int *src) {
    __shared__ int smem[128];
    if (threadIdx.x < 64) {
        smem[threadIdx.x] = src[threadIdx.x];
        __syncthreads(); // expect: WL007
    }
    dst[threadIdx.x] = smem[127 - threadIdx.x];
}
