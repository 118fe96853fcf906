// A raking reduction in the style of a block-reduce library: the first
// `Layout::kRakers` threads (a class constant, at most 32) each fold a
// segment, then synchronise with the mask of exactly those lanes. The mask
// is computed from the same constant the guard reads, so it names just
// the lanes that reach the call; with the class unknown to the analysis
// that is a candidate at most, never direct evidence. The segment fold
// recurses through overloads chosen by a tag's value (`Step<I>` …
// `Step<kSegment>`), which the analysis does not resolve, so no run gets
// to the call to test it either.
#define RAKE_SEGMENT 4

template <int I>
struct Step {};

template <int I>
__device__ float rake_fold(const float *seg, float acc, Step<I>) {
    return rake_fold(seg, acc + seg[I], Step<I + 1>{});
}

__device__ float rake_fold(const float *, float acc, Step<RAKE_SEGMENT>) {
    return acc;
}

template <class Layout>
struct RakingReduce {
    float *grid;

    __device__ float reduce(float partial) {
        int tid = threadIdx.x;
        grid[tid] = partial;
        __syncthreads();
        if (tid < Layout::kRakers) {
            const float *seg = grid + tid * RAKE_SEGMENT;
            partial = rake_fold(seg, seg[0], Step<1>{});
            unsigned mask = (unsigned)((1ull << Layout::kRakers) - 1);
            __syncwarp(mask);
            partial += __shfl_sync(mask, partial, 0);
        }
        return partial;
    }
};
