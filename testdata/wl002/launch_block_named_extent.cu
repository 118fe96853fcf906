// A block declared as `dim3 block(kThreads);` with a named constant.
// C++ parses that line as the declaration of a function `block` taking a
// `kThreads` (the most vexing parse) where `dim3 block(48);` is a
// variable. Before, such launches stated no block: the kernels ran under
// an assumed block of 128 threads, and the partial warp below was missed.

constexpr int kPartialThreads = 48;
constexpr int kWholeThreads = 64;

__global__ void neighbour_sum(const float *in, float *out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    v += __shfl_xor_sync(0xffffffffu, v, 16); // expect: WL002
    out[i] = v;
}

// Look-alike: the same sum in blocks of whole warps.
__global__ void neighbour_sum_whole(const float *in, float *out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    v += __shfl_xor_sync(0xffffffffu, v, 16);
    out[i] = v;
}

namespace shapes {
constexpr int kRows = 2;
}

void run_neighbour_sums(const float *in, float *out, int blocks, cudaStream_t s) {
    const dim3 block(kPartialThreads);
    neighbour_sum<<<blocks, block, 0, s>>>(in, out);
    dim3 whole(kWholeThreads, shapes::kRows);
    neighbour_sum_whole<<<blocks, whole, 0, s>>>(in, out);
}
