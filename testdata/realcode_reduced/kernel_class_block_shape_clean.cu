// The look-alike: this kernel class states a block of 32 lanes per row,
// so every warp is one row and the rows that `continue` leave as whole
// warps. The full-mask shuffle is reached by all 32 lanes or by none.
struct RowDotWide {
    static const int kThreadsPerRow = 32;
    static const int kRows = 4;

    static dim3 get_block_shape() { return dim3(kThreadsPerRow, kRows, 1); }

    __device__ void operator()(const float *a, float *out, int rows) {
        for (int r = threadIdx.y; r < 64; r += kRows) {
            if (r >= rows)
                continue;
            float acc = a[r * kThreadsPerRow + threadIdx.x];
            for (int o = 16; o > 0; o /= 2)
                acc += __shfl_xor_sync(0xffffffff, acc, o);
            if (threadIdx.x == 0)
                out[r] = acc;
        }
    }
};
