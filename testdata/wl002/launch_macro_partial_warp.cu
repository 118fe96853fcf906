// Kernels launched only through a function-like macro that holds the
// `<<<…>>>` (`#define LAUNCH_X(n) x<<<n, block>>>(…)`, DeepSpeed's and
// many extensions' launchers). The macro's use is the launch: its block is
// the host function's local. Before, such launches were not seen: the
// kernels ran under an assumed block of 128 threads, and the host bodies
// using them were blanked as host code without launches.

__global__ void pair_sums(const float *in, float *out) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    v += __shfl_xor_sync(0xffffffffu, v, 16); // expect: WL002
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Look-alike: the same sums in blocks of whole warps.
__global__ void pair_sums_whole(const float *in, float *out) {
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    v += __shfl_xor_sync(0xffffffffu, v, 16);
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

#define LAUNCH_PAIR_SUMS(kernel, blocks) \
    kernel<<<blocks, block>>>(in, out)

// 48 threads a block: the second warp has 16 lanes, and each reads the
// value of one of the 16 the mask names that do not exist.
void run_pair_sums(const float *in, float *out, int blocks) {
    dim3 block(48);
    LAUNCH_PAIR_SUMS(pair_sums, blocks);
}

void run_pair_sums_whole(const float *in, float *out, int blocks) {
    dim3 block(64);
    LAUNCH_PAIR_SUMS(pair_sums_whole, blocks);
}
