__global__ void k() { if (threadIdx.x < 16) { __shfl_sync(0xffffffff, 1, 0); 
#if CUDA_VERSION < 9000
 __shfl(
#endif
