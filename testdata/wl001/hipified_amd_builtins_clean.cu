// A source written for AMD GPUs and hipified at build time: it includes
// only CUDA-spelled headers (the hipify step rewrites them), so nothing
// names HIP's runtime. But its compiled code calls amdgcn builtins and
// uses HIP's bfloat16 type with no guard, which nvcc cannot compile: the
// file is HIP code, and `__shfl_xor`/`__ballot` are HIP's 64-wide wavefront
// functions here. Nothing is a WL001 finding.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define WAVE 64

struct bf16_pair {
    __hip_bfloat16 lo, hi;
};

__device__ int wave_first_bin(int bin, unsigned long long active) {
    int leader = __ffsll(active) - 1;
    return __builtin_amdgcn_readlane(bin, leader);
}

__device__ float wave_sum(float x) {
    for (int step = WAVE / 2; step > 0; step >>= 1)
        x += __shfl_xor(x, step);
    return x;
}

__global__ void bin_votes(const int *bins, const float *w, float *out, int *first) {
    unsigned long long active = __ballot(bins[threadIdx.x] >= 0);
    first[blockIdx.x] = wave_first_bin(bins[threadIdx.x], active);
    out[blockIdx.x] = wave_sum(w[threadIdx.x]);
}
