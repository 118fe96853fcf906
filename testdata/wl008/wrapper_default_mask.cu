// WL008 through a project wrapper whose mask parameter defaults to the full
// warp: `lanes_voting(1)` is `__ballot_sync(0xffffffff, 1)`.

#define ALL_LANES 0xffffffffu
#define LANES_HERE() __ballot_sync(ALL_LANES, 1)

__device__ __forceinline__ unsigned lanes_voting(int predicate, unsigned mask = ALL_LANES)
{
    return __ballot_sync(mask, predicate);
}

__device__ void add_to_histogram(unsigned *bins, int bin)
{
    unsigned present = lanes_voting(1); // expect: WL008
    int lane = threadIdx.x & 31;
    if (lane == __ffs(present) - 1)
        atomicAdd(&bins[bin], __popc(present));
}

// The same vote through a function-like macro.
__device__ int lanes_before_me()
{
    unsigned here = LANES_HERE(); // expect: WL008
    return __popc(here & ((1u << (threadIdx.x & 31)) - 1));
}

// A counted wrapper used with a non-constant predicate is an ordinary vote.
__device__ int positives(int v)
{
    return __popc(lanes_voting(v > 0));
}

__global__ void histogram_tail(unsigned *bins, const int *keys, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        add_to_histogram(bins, keys[i] & 7); // expect: WL002
}

__global__ void histogram_full(unsigned *bins, const int *keys)
{
    add_to_histogram(bins, keys[blockIdx.x * blockDim.x + threadIdx.x] & 7);
}

void launch(unsigned *bins, const int *keys)
{
    histogram_tail<<<1, 32>>>(bins, keys, 20);
    histogram_full<<<1, 32>>>(bins, keys);
}
