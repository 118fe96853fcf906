// strict: WL005
// The unit that compiles the header's kernels, as the instances it lists.
#include "segment_kernels.cuh"

template __global__ void segment_broadcast<24>(float *);
template __global__ void segment_rotate<4>(float *);
template __global__ void segment_rotate<16>(float *);
