// strict: WL002
// A per-warp work queue kept as class state, as communication kernels
// write it: the constructor stores a pointer to the warp's slot (two
// ints: first and end of its range), `claim()`
// has lane 0 publish the range and every lane read it back into the
// fields `begin` and `end`, and `run()` loops over the range with a
// full-mask shuffle in the body.
//
// `WarpQueue` reads its range from the warp's own slot (one address per
// warp), so `begin < end` is the same in every lane and the whole warp
// runs each iteration (clean). A field no constructor sets is as uniform
// as what the class's members write into it, in the contexts they are
// called from.
//
// The look-alike, `SkewedQueue`, starts each lane at its own offset
// (`begin = slot[0] + lane % 4`): lanes leave the loop at different
// times while the rest still name them in the full mask (finding).

class WarpQueue {
 public:
  __device__ WarpQueue(int *slot, const float *in, float *out)
      : slot(slot), in(in), out(out) {}

  __device__ void claim(int first, int count) {
    if (threadIdx.x % 32 == 0) {
      slot[0] = first;
      slot[1] = first + count;
    }
    __syncwarp();
    begin = slot[0];
    end = slot[1];
  }

  __device__ void run(int first, int count) {
    claim(first, count);
    int lane = threadIdx.x % 32;
    while (begin < end) {
      float v = in[begin * 32 + lane];
      v += __shfl_xor_sync(0xffffffff, v, 1);
      out[begin * 32 + lane] = v;
      begin += 1;
    }
  }

 private:
  int *slot;
  const float *in;
  float *out;
  int begin;
  int end;
};

__global__ void queue_kernel(int *slots, const float *in, float *out, int count) {
  int *mine = slots + 2 * (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32);
  WarpQueue q(mine, in, out);
  q.run(blockIdx.x * count, count);
}

class SkewedQueue {
 public:
  __device__ SkewedQueue(int *slot, const float *in, float *out)
      : slot(slot), in(in), out(out) {}

  __device__ void claim(int first, int count) {
    if (threadIdx.x % 32 == 0) {
      slot[0] = first;
      slot[1] = first + count;
    }
    __syncwarp();
    begin = slot[0] + threadIdx.x % 4;
    end = slot[1];
  }

  __device__ void run(int first, int count) {
    claim(first, count);
    int lane = threadIdx.x % 32;
    while (begin < end) {
      float v = in[begin * 32 + lane];
      v += __shfl_xor_sync(0xffffffff, v, 1); // expect: WL002
      out[begin * 32 + lane] = v;
      begin += 1;
    }
  }

 private:
  int *slot;
  const float *in;
  float *out;
  int begin;
  int end;
};

__global__ void skewed_kernel(int *slots, const float *in, float *out, int count) {
  int *mine = slots + 2 * (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32);
  SkewedQueue q(mine, in, out);
  q.run(blockIdx.x * count, count);
}
