// A host-only launcher: the runtime's extensible launch with a policy.
#include <lib/lanes.cuh>
#include <lib/steps.cuh>

void launch_half_fold(const float *in, float *out, cudaStream_t stream) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(16);
    config.blockDim = dim3(128);
    config.stream = stream;
    cudaLaunchKernelEx(&config, lanes_fold_ex<lib::HalfLanes>, in, out);
}
