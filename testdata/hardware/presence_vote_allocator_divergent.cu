// Hardware case: WL008 full-mask-presence-vote (outcome on the GPU: see
// results.toml). A heap allocator asks which lanes want memory with
// `__ballot_sync(0xffffffff, 1)` and serves them one at a time. The kernel
// calls it only for items that exist (`if (i < n)`, n = 300 with blocks of
// 128), in the warp of threads 288-319 only lanes 0-11 arrive; lanes 12-31 go
// on to the warp's full-mask reduction after the branch. Bug by the
// programming guide: the full mask names lanes that are alive and never come.
// The call site is also WL002 (suppressed below): this case records the
// helper's bug, which is where the fix belongs.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__device__ unsigned *carve(unsigned *heap, unsigned *top, unsigned words)
{
    const unsigned here = __ballot_sync(0xffffffffu, 1); // expect: WL008
    unsigned queue = here;
    const int lane = threadIdx.x & 31;
    unsigned *mine = nullptr;
    while (queue != 0) {
        const int turn = __ffs(queue) - 1;
        unsigned want = __shfl_sync(here, words, turn);
        unsigned at = 0;
        if (lane == turn)
            at = atomicAdd(top, want);
        at = __shfl_sync(here, at, turn);
        if (lane == turn)
            mine = heap + at;
        queue &= queue - 1;
    }
    return mine;
}

__global__ void place_items(unsigned *heap, unsigned *top, const unsigned *sizes,
                            unsigned *offset_of, unsigned *per_warp, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned placed = 0;
    if (i < n) {
        // warplint: ignore[WL002] the hardware case records the helper's WL008
        unsigned *p = carve(heap, top, sizes[i]);
        offset_of[i] = (unsigned)(p - heap);
        placed = 1;
    }
    unsigned total = __reduce_add_sync(0xffffffffu, placed);
    if ((threadIdx.x & 31) == 0)
        per_warp[i / 32] = total;
}

// ---------------------------------------------------------------- host side
static const char *kCase = "presence_vote_allocator_divergent";

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
    const int blocks = 4, threads = 128, cap = blocks * threads, n = 300;
    unsigned h_sizes[cap], want_top = 0;
    for (int i = 0; i < cap; ++i) {
        h_sizes[i] = 1 + (i * 5) % 4;
        if (i < n)
            want_top += h_sizes[i];
    }
    unsigned *d_heap, *d_top, *d_sizes, *d_off, *d_warp;
    cudaMalloc(&d_heap, 4 * cap * sizeof(unsigned));
    cudaMalloc(&d_top, sizeof(unsigned));
    cudaMalloc(&d_sizes, sizeof h_sizes);
    cudaMalloc(&d_off, cap * sizeof(unsigned));
    cudaMalloc(&d_warp, cap / 32 * sizeof(unsigned));
    cudaMemcpy(d_sizes, h_sizes, sizeof h_sizes, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_top, 0, sizeof(unsigned));
        place_items<<<4, 128>>>(d_heap, d_top, d_sizes, d_off, d_warp, 300);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        unsigned top = 0, h_off[cap], h_warp[cap / 32];
        cudaMemcpy(&top, d_top, sizeof top, cudaMemcpyDeviceToHost);
        cudaMemcpy(h_off, d_off, sizeof h_off, cudaMemcpyDeviceToHost);
        cudaMemcpy(h_warp, d_warp, sizeof h_warp, cudaMemcpyDeviceToHost);
        if (top != want_top) {
            snprintf(wrong, sizeof wrong, "heap top %u want %u (rep %d)", top, want_top, r);
            break;
        }
        // Every item's block must lie inside the heap, and no two overlap.
        static unsigned char used[4 * cap];
        for (unsigned k = 0; k < 4u * cap; ++k) used[k] = 0;
        for (int i = 0; i < n && !wrong[0]; ++i)
            for (unsigned k = 0; k < h_sizes[i]; ++k) {
                unsigned at = h_off[i] + k;
                if (at >= want_top || used[at]++) {
                    snprintf(wrong, sizeof wrong, "item %d overlaps or is outside (rep %d)", i, r);
                    break;
                }
            }
        for (int w = 0; w < cap / 32 && !wrong[0]; ++w) {
            int lo = w * 32, expect = n - lo < 0 ? 0 : (n - lo > 32 ? 32 : n - lo);
            if (h_warp[w] != (unsigned)expect)
                snprintf(wrong, sizeof wrong, "warp %d placed %u want %d (rep %d)", w, h_warp[w], expect, r);
        }
    }
    return verdict(err, wrong);
}
