// strict: WL002, WL007
// CuTe-style main loop: the trip count is a shape query (`size<2>(t)`) on
// a tensor partitioned by the thread index. A partition has the same shape
// in every thread (only its offset depends on the thread), so the loop is
// block-uniform and its barriers are reached by every thread. The library
// is not in view: only the declarations are. The second kernel adds a
// per-thread term to the trip count: that loop does split the block.
namespace cute {
template <int I, class T> __device__ int size(T const &t);
}
using cute::size;

struct Frag { const float *ptr; };
__device__ Frag local_partition(Frag whole, int thread_idx);

__global__ void staged_mainloop(Frag gA, float *out) {
    __shared__ float tile[128];
    Frag tAgA = local_partition(gA, threadIdx.x);
    auto k_tiles = size<2>(tAgA);
    float acc = 0.0f;
    for (int k = 0; k < k_tiles; ++k) {
        tile[threadIdx.x] = tAgA.ptr[k];
        __syncthreads();
        acc += tile[(threadIdx.x + 1) % 128];
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}

__global__ void staged_mainloop_ragged(Frag gA, float *out) {
    __shared__ float tile[128];
    Frag tAgA = local_partition(gA, threadIdx.x);
    int k_tiles = size<2>(tAgA) + (threadIdx.x & 1);
    float acc = 0.0f;
    for (int k = 0; k < k_tiles; ++k) {
        tile[threadIdx.x] = tAgA.ptr[k];
        __syncthreads(); // expect: WL007
        acc += tile[(threadIdx.x + 1) % 128];
        __syncthreads(); // expect: WL007
    }
    out[threadIdx.x] = acc;
}
