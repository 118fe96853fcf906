#define FULL 0xffffffffu
#define SHFL(v, l) \
  __shfl(v, l)
#define BAL(p) __ballot(p)
#if __CUDA_ARCH__ < 300
#define OLD(v) __shfl_up(v, 1)
#else
#define NEW(v) __shfl_up_sync(FULL, v, 1)
#endif
__device__ int g(int v) { return SHFL(v, 0) + BAL(v > 0); }
