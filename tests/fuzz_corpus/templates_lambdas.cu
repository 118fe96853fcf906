template <int W> __device__ int red(int v) {
  for (int o = W / 2; o > 0; o /= 2) v += __shfl_xor(v, o, W);
  return v;
}
__global__ void k(int *p) {
  auto f = [&](int x) { return __shfl_down_sync(__activemask(), x, 1); };
  __shared__ int s[32];
  s[threadIdx.x % 32] = f(red<32>(p[threadIdx.x]));
  if (threadIdx.x < 16) __syncthreads();
  cg::sync(block);
}
int main() { k<<<dim3(4), 48>>>(nullptr); }
