__device__ unsigned lane() { unsigned r; asm("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ int f(int v) { if (lane() < 20) v = __shfl(v, lane() + 1); return v; }
