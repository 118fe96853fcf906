// A host-only launcher: the whole-warp policy, through a local that names
// the instance.
#include <lib/lanes.cuh>
#include <lib/steps.cuh>

void launch_all_fold(const float *in, float *out, cudaStream_t stream) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(16);
    config.blockDim = dim3(128);
    config.stream = stream;
    auto kernel = lanes_fold_all_ex<lib::AllLanes>;
    cudaLaunchKernelEx(&config, kernel, in, out);
}
