// A member of a class template runs with the class's parameters as the
// instance the call names states them: `Part<32>::run(v)`, or an object
// declared `Part<32> q;`. Before, `Lanes` was a value the run picked, the
// mask `0xffffffff >> (32 - Lanes)` was one the executor could not
// compute, and neither the bug nor the look-alike was decided.
// strict: WL002

template <int Lanes>
struct Part {
  __device__ float run(float v) {
    return __shfl_xor_sync(0xffffffffu >> (32 - Lanes), v, 1, Lanes);
  }
  static __device__ float broadcast(float v) {
    return __shfl_sync(0xffffffffu >> (32 - Lanes), v, 0, Lanes);
  }
};

// Lanes 0-15 with a 16-lane instance: the mask is theirs.
__global__ void object16(float* p) {
  if (threadIdx.x % 32 < 16) {
    Part<16> q;
    p[threadIdx.x] = q.run(p[threadIdx.x]);
  }
}

// Lanes 0-15 with the whole-warp instance: lanes 16-31 never arrive.
__global__ void object32(float* p) {
  if (threadIdx.x % 32 < 16) {
    Part<32> q;
    p[threadIdx.x] = q.run(p[threadIdx.x]); // expect: WL002
  }
}

constexpr int kHalfWarp = 16;

__global__ void static16(float* p) {
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = Part<kHalfWarp>::broadcast(p[threadIdx.x]);
  }
}

__global__ void static32(float* p) {
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = Part<32>::broadcast(p[threadIdx.x]); // expect: WL002
  }
}

void launch_all(float* p) {
  object16<<<4, 128>>>(p);
  object32<<<4, 128>>>(p);
  static16<<<4, 128>>>(p);
  static32<<<4, 128>>>(p);
}
