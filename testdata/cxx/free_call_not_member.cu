// An unqualified call written in a free function names a free function,
// never a member of some class that shares its name. A stream-like class
// with its own `sync()` member declared first made the kernel's call of the
// free barrier helper `sync()` resolve to the empty member, and the barrier
// under a thread-dependent guard was missed.
// strict: WL007

struct Stream {
  __device__ void sync() {}
};

__device__ void sync() { __syncthreads(); }

__global__ void guarded_sync(float *x, int n) {
  if (threadIdx.x < n) {
    sync(); // expect: WL007
  }
  x[threadIdx.x] = 0.0f;
}

// Look-alike: the member, called on its object, holds no barrier.
__global__ void guarded_stream_sync(float *x, int n) {
  Stream s;
  if (threadIdx.x < n) {
    s.sync();
  }
  x[threadIdx.x] = 0.0f;
}
