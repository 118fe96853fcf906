__global__ void k(int *p) {
  int v = p[threadIdx.x];
  v += __shfl_down(v, 1);
  p[threadIdx.x] = v;
}
