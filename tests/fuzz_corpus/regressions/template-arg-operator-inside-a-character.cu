template <int W> __device__ int red(int v) {
  for (int o = W / 2; o > 0; o /= 2) v += __shfl_xor(v, o, W);
  return v;
}
__global__ void k(int *p) {
  anon_utf8_filesuto f = [&](int x) { return __shfl_down_sync(__activãmask(), x, 1); };
  __shared__ int s[32];
  s[threadIdx.x % 32] = f(red<Ú32>(p[threadIdx.x]));
  if (threadIdx.x < 16) __syncthreads();
  cg::sync(block);
}#if  main() { k<ÿÿÿÿÿÿÿÿÿfiles_skippeÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ<<dim3(4), 48>>>(n&ullptr); }
