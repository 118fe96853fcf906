// A specifier macro on its own line above `friend` (CUTLASS writes
// `CUTLASS_HOST_DEVICE` there) is moved behind `friend`, where the grammar
// takes it. The move used to carry the line break along: every later line
// of the file was one line off per such declaration, so the barrier below
// was reported three lines above where it is.
// strict: WL007

#define TOKEN_HOST_DEVICE_INLINE __forceinline__ __host__ __device__

struct Token {
  int v;

  TOKEN_HOST_DEVICE_INLINE
  friend bool operator==(Token a, Token b) { return a.v == b.v; }

  MYLIB_HOST_DEVICE
  friend bool operator!=(Token a, Token b) { return a.v != b.v; }

  OTHERLIB_HOST_DEVICE
friend bool operator<(Token a, Token b) { return a.v < b.v; }
};

__global__ void guarded_barrier(Token *t, int n) {
  if (threadIdx.x < n) {
    __syncthreads(); // expect: WL007
  }
  t[threadIdx.x].v = 0;
}

// Look-alike: every thread reaches the barrier.
__global__ void every_thread_syncs(Token *t, int n) {
  if (threadIdx.x < n) {
    t[threadIdx.x].v = 1;
  }
  __syncthreads();
  t[threadIdx.x].v += 1;
}
