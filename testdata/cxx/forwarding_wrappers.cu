// A wrapper that forwards to another library's function of the same name
// (`void fence() { vendor::fence(); }`) calls that library's function, not
// itself: without the other library's source the call is unknown. Taken
// for a call of itself, every run recursed until the executor's call-depth
// budget and proved nothing, so direct evidence stood as a warning that
// exact runs refute.
// strict: WL002

namespace vendor {
__device__ void fence();
__device__ float combine(float v);
} // namespace vendor

namespace mine {
__device__ void fence() { vendor::fence(); }

// Calls itself by its own scope: real recursion, followed only as deep as
// the executor's call-depth budget.
__device__ float combine(float v) { return v > 1.0f ? mine::combine(v * 0.5f) : v; }

// The launch passes `n = 128`, the block's size: every lane passes the
// guard and the full mask is right. Exact runs prove it once `fence` is
// known not to be this function.
__global__ void whole_block(float* p, int n) {
  float v = p[threadIdx.x];
  fence();
  if (threadIdx.x < n) {
    v += __shfl_xor_sync(0xffffffffu, v, 1);
  }
  p[threadIdx.x] = v;
}

// The same guard with lanes 0-15 only: found whatever the wrapper does.
__global__ void low_lanes(float* p) {
  float v = p[threadIdx.x];
  fence();
  if (threadIdx.x % 32 < 16) {
    v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
  }
  p[threadIdx.x] = v;
}

// A run goes on past a recursive call (its value unknown) and still shows
// what follows it.
__global__ void halves(float* p) {
  float v = combine(p[threadIdx.x]);
  if (threadIdx.x % 32 < 16) {
    v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
  }
  p[threadIdx.x] = v;
}
} // namespace mine

void launch_all(float* p) {
  mine::whole_block<<<4, 128>>>(p, 128);
  mine::low_lanes<<<4, 128>>>(p);
  mine::halves<<<4, 128>>>(p);
}
