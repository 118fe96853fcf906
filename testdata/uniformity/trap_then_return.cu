// strict: WL002, WL007
// A kernel that checks its arguments and traps on bad input: the thread
// that traps aborts the whole grid, so the `return` after the trap is not
// an early exit that other threads could wait for at the barrier. The
// look-alike returns without trapping: threads past the row count leave and
// the rest wait at `__syncthreads()` for them.
__global__ void checked_rows(const float *in, float *out, int rows) {
    __shared__ float tile[128];
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) {
        asm volatile("trap;");
        return;
    }
    tile[threadIdx.x] = in[row];
    __syncthreads();
    out[row] = tile[127 - threadIdx.x];
}

__global__ void checked_rows_leaving(const float *in, float *out, int rows) {
    __shared__ float tile[128];
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) {
        return;
    }
    tile[threadIdx.x] = in[row];
    __syncthreads(); // expect: WL007
    out[row] = tile[127 - threadIdx.x];
}
