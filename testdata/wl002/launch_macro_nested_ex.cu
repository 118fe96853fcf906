// Kernels launched through macros that use other macros, the innermost
// calling `cudaLaunchKernelEx` with a config whose block is a local
// constant of the host function (PyTorch extensions' dispatch shape:
// `DISPATCH(…, [&] { LAUNCH(T); })`, LAUNCH choosing among LAUNCH_ONE
// uses, each defined inside the launcher). Before, only a macro whose own
// body held `<<<` was seen: these kernels ran under an assumed block, and
// a per-group exit was reported although the launch makes it whole groups,
// and a host function whose only launch was such a use was blanked as host
// code without launches.

#include <cstdint>

// Eight lanes per group, 256 threads a block: a group is eight lanes of
// one warp, it leaves as a whole, and the mask names exactly its lanes.
// The launch writes no GROUP: its default holds, and the body is compiled
// only for the element sizes it serves.
template <typename T, int LANES, int GROUP = 64>
__global__ void group_absmax(const T *in, float *out, int64_t groups) {
    if constexpr (GROUP != LANES * (32 / sizeof(T))) {
        return;
    } else {
        const int64_t group =
            (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / LANES;
        if (group >= groups) {
            return;
        }
        float v = static_cast<float>(in[group * GROUP + threadIdx.x % LANES]);
        const unsigned segment = 0xffu << (threadIdx.x & 24u);
        v = fmaxf(v, __shfl_xor_sync(segment, v, 4));
        v = fmaxf(v, __shfl_xor_sync(segment, v, 2));
        v = fmaxf(v, __shfl_xor_sync(segment, v, 1));
        if (threadIdx.x % LANES == 0) {
            out[group] = v;
        }
    }
}

// 48 threads a block: the second warp has 16 lanes, and the full mask
// names 16 that do not exist.
template <typename T>
__global__ void pair_max(const T *in, float *out) {
    float v = static_cast<float>(in[blockIdx.x * blockDim.x + threadIdx.x]);
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 16)); // expect: WL002
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// 40 threads a block, launched by the innermost macro itself: 24 of the
// lanes the mask names do not exist.
template <typename T>
__global__ void pair_min(const T *in, float *out) {
    float v = static_cast<float>(in[blockIdx.x * blockDim.x + threadIdx.x]);
    v = fminf(v, __shfl_xor_sync(0xffffffffu, v, 16)); // expect: WL002
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Look-alike: the same kernel in blocks of whole warps.
template <typename T>
__global__ void pair_max_whole(const T *in, float *out) {
    float v = static_cast<float>(in[blockIdx.x * blockDim.x + threadIdx.x]);
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, 16));
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

void absmax_launcher(const void *in, float *out, int64_t groups, bool as_half,
                     cudaStream_t stream) {
    constexpr int kLanes = 8;
    constexpr int kThreads = 256;
    const int blocks = static_cast<int>((groups * kLanes + kThreads - 1) / kThreads);
#define LAUNCH_ONE(T)                                                          \
    do {                                                                       \
        cudaLaunchConfig_t config = {};                                        \
        config.gridDim = dim3(blocks);                                         \
        config.blockDim = dim3(kThreads);                                      \
        config.stream = stream;                                                \
        cudaLaunchKernelEx(&config, group_absmax<T, kLanes>,                   \
                           static_cast<const T *>(in), out, groups);           \
    } while (0)
#define LAUNCH(T)                                                              \
    do {                                                                       \
        if (as_half) {                                                          \
            LAUNCH_ONE(__half);                                                \
        } else {                                                               \
            LAUNCH_ONE(T);                                                     \
        }                                                                      \
    } while (0)
    LAUNCH(float);
#undef LAUNCH
#undef LAUNCH_ONE
}

#define LAUNCH_PAIR(KERNEL, THREADS)                                           \
    do {                                                                       \
        cudaLaunchConfig_t cfg = {};                                           \
        cfg.gridDim = dim3(blocks);                                            \
        cfg.blockDim = dim3(THREADS);                                          \
        cudaLaunchKernelEx(&cfg, KERNEL<float>, in, out);                      \
    } while (0)
#define LAUNCH_PAIRS(THREADS) LAUNCH_PAIR(pair_max, THREADS)

// A constant of the file, which the launcher's text alone does not hold.
constexpr int kPairThreads = 48;

void pair_launcher(const float *in, float *out, int blocks) {
    LAUNCH_PAIRS(kPairThreads);
}

void pair_min_launcher(const float *in, float *out, int blocks) {
    LAUNCH_PAIR(pair_min, 40);
}

void pair_whole_launcher(const float *in, float *out, int blocks) {
    LAUNCH_PAIR(pair_max_whole, 64);
}
