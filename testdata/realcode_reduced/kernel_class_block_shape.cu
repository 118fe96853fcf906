// A kernel written as a class (the CUTLASS shape): `operator()` is the
// body, and the host member `get_block_shape()` states the block, here
// 8 lanes per row and 16 rows, so each warp holds four rows. Rows past the
// sequence length skip the row with `continue`; the rest reduce along the
// row with a full-mask, width-8 shuffle that names the lanes of the rows
// that left.
struct RowDotKernel {
    static const int kThreadsPerRow = 8;
    static const int kRows = 16;

    static dim3 get_block_shape() {
        dim3 block(kThreadsPerRow, kRows, 1);
        return block;
    }

    __device__ void operator()(const float *a, float *out, int rows) {
        for (int r = threadIdx.y; r < 64; r += kRows) {
            if (r >= rows)
                continue;
            float acc = a[r * kThreadsPerRow + threadIdx.x];
            for (int o = 1; o < kThreadsPerRow; o *= 2)
                acc += __shfl_xor_sync(0xffffffff, acc, o, kThreadsPerRow); // expect: WL002
            if (threadIdx.x == 0)
                out[r] = acc;
        }
    }
};
