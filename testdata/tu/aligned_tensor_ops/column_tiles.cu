// Column loops over whole warps of a (32, nwarps) block, as a matmul
// kernel writes them: `col = threadIdx.y*32 + threadIdx.x; col < ncols`.
// Whether the loop condition splits a warp depends on ncols % 32, which
// only the host knows. Where the loop body runs a `.sync.aligned` tensor
// instruction (through the header's helpers), the code itself states
// that every lane of the warp runs the body together (PTX: all threads of
// the warp must execute the same aligned instruction), so the condition
// is warp-uniform and the __syncwarp() beside it waits for a whole warp.
// strict: WL002
#include "tiles.cuh"

template <int nwarps>
__global__ void tiled_columns(const int *x, const frag_b *w, float *dst, int ncols, int stride) {
    __shared__ int stage[nwarps][16 * 40];
    int *mine = stage[threadIdx.y];
    frag_c acc = {};
    for (int col = threadIdx.y * 32 + threadIdx.x; col < ncols; col += nwarps * 32) {
        __syncwarp();
#pragma unroll
        for (int i = 0; i < 16; ++i) {
            mine[i * 40 + threadIdx.x] = x[i * stride + col];
        }
        __syncwarp();
        frag_a a;
        load_frag(a, mine, 40);
        frag_mma(acc, a, w[col / 32]);
    }
    dst[(blockIdx.x * nwarps + threadIdx.y) * 32 + threadIdx.x] = acc.x[0];
}

// Look-alike: the same loop staging columns for a plain sum. Nothing in
// it requires a converged warp, so with ncols = 20 lanes 20..31 leave
// the loop while lanes 0..19 wait at the full-mask __syncwarp().
template <int nwarps>
__global__ void summed_columns(const int *x, float *dst, int ncols, int stride) {
    __shared__ int stage[nwarps][16 * 40];
    int *mine = stage[threadIdx.y];
    float acc = 0.0f;
    for (int col = threadIdx.y * 32 + threadIdx.x; col < ncols; col += nwarps * 32) {
        __syncwarp(); // expect: WL002
#pragma unroll
        for (int i = 0; i < 16; ++i) {
            mine[i * 40 + threadIdx.x] = x[i * stride + col];
        }
        __syncwarp(); // expect: WL002
        for (int i = 0; i < 16; ++i) {
            acc += mine[i * 40 + (threadIdx.x ^ 1)];
        }
    }
    dst[(blockIdx.x * nwarps + threadIdx.y) * 32 + threadIdx.x] = acc;
}

// Look-alike: the tensor instruction only runs for full tiles, under a
// condition of its own, so it states nothing about the loop condition:
// lanes past ncols still leave the loop before the __syncwarp().
template <int nwarps>
__global__ void ragged_columns(const int *x, const frag_b *w, float *dst, int ncols, int stride) {
    __shared__ int stage[nwarps][16 * 40];
    int *mine = stage[threadIdx.y];
    frag_c acc = {};
    for (int col = threadIdx.y * 32 + threadIdx.x; col < ncols; col += nwarps * 32) {
#pragma unroll
        for (int i = 0; i < 16; ++i) {
            mine[i * 40 + threadIdx.x] = x[i * stride + col];
        }
        __syncwarp(); // expect: WL002
        if (col - threadIdx.x + 32 <= ncols) {
            frag_a a;
            load_frag(a, mine, 40);
            frag_mma(acc, a, w[col / 32]);
        }
    }
    dst[(blockIdx.x * nwarps + threadIdx.y) * 32 + threadIdx.x] = acc.x[0];
}

void launch_columns(const int *x, const frag_b *w, float *dst, int ncols, int stride, int rows) {
    dim3 block(32, 4);
    tiled_columns<4><<<rows, block>>>(x, w, dst, ncols, stride);
    summed_columns<4><<<rows, block>>>(x, dst, ncols, stride);
    ragged_columns<4><<<rows, block>>>(x, w, dst, ncols, stride);
}
