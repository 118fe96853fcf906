// Hardware case: WL009 named barrier count computed at run time that is no
// multiple of the warp size (outcome on the GPU: see results.toml). Each
// 64-thread block transposes a 6x8 tile through shared memory: the host
// passes the tile's thread count, rows * cols = 48, and every thread of the
// block (the 16 past the tile stage nothing) waits at PTX named barrier 3
// with that count between the store and the transposed read. Bug by the
// PTX ISA: the thread count of `bar.sync` must be a multiple of the warp
// size; ptxas rejects a literal 48, and a register holding 48 is undefined
// behaviour at run time.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE_ROWS 6
#define TILE_COLS 8

__global__ void transpose_tiles(const int *in, int *out, int threads_per_group)
{
    __shared__ int tile[TILE_ROWS * TILE_COLS];
    int t = threadIdx.x;
    int base = blockIdx.x * TILE_ROWS * TILE_COLS;
    if (t < TILE_ROWS * TILE_COLS)
        tile[t] = in[base + t];
    asm volatile("bar.sync 3, %0;" ::"r"(threads_per_group) : "memory"); // expect: WL009
    if (t < TILE_ROWS * TILE_COLS) {
        // out is the 8x6 transpose: element (r, c) of it is tile (c, r)
        int r = t / TILE_ROWS, c = t % TILE_ROWS;
        out[base + t] = tile[c * TILE_COLS + r];
    }
}

// ---------------------------------------------------------------- host side
static const char *kCase = "named_barrier_count_computed";

static int hw_reps()
{
    const char *r = getenv("HW_REPS");
    return r ? atoi(r) : 50;
}

static int verdict(cudaError_t err, const char *wrong)
{
    if (err != cudaSuccess) {
        printf("RESULT %s crash %s\n", kCase, cudaGetErrorString(err));
        return 2;
    }
    if (wrong[0]) {
        printf("RESULT %s wrong %s\n", kCase, wrong);
        return 1;
    }
    printf("RESULT %s ok\n", kCase);
    return 0;
}

int main()
{
    const int rows = TILE_ROWS, cols = TILE_COLS;
    const int threads_per_group = rows * cols; // the threads that hold a cell
    const int blocks = 4, per = rows * cols, n = blocks * per;
    int h_in[n], h_out[n], want[n];
    for (int i = 0; i < n; ++i)
        h_in[i] = (i * 17 + 6) % 53;
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < per; ++t)
            want[b * per + t] = h_in[b * per + (t % rows) * cols + t / rows];
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0, sizeof h_out);
        transpose_tiles<<<4, 64>>>(d_in, d_out, threads_per_group);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        int bad = 0, first = -1;
        for (int i = 0; i < n; ++i)
            if (h_out[i] != want[i]) {
                if (first < 0) first = i;
                ++bad;
            }
        if (bad)
            snprintf(wrong, sizeof wrong, "%d of %d values, out[%d]=%d want %d (rep %d)",
                     bad, n, first, h_out[first], want[first], r);
    }
    return verdict(err, wrong);
}
