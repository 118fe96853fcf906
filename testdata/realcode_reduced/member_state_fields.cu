// strict: WL002
// A per-warp work queue kept as class state, as communication kernels
// write it: the constructor stores a pointer to the warp's slot (a
// `Range` in global memory), `claim()`
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
// (`begin = slot->begin + lane % 4`): lanes leave the loop at different
// times while the rest still name them in the full mask (finding).

struct Range {
  int begin;
  int end;
};

class WarpQueue {
 public:
  __device__ WarpQueue(Range *slot, const float *in, float *out)
      : slot(slot), in(in), out(out) {}

  __device__ void claim(int first, int count) {
    if (threadIdx.x % 32 == 0) {
      slot->begin = first;
      slot->end = first + count;
    }
    __syncwarp();
    begin = slot->begin;
    end = slot->end;
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
  Range *slot;
  const float *in;
  float *out;
  int begin;
  int end;
};

__global__ void queue_kernel(Range *slots, const float *in, float *out, int count) {
  Range *mine = slots + (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32);
  WarpQueue q(mine, in, out);
  q.run(blockIdx.x * count, count);
}

class SkewedQueue {
 public:
  __device__ SkewedQueue(Range *slot, const float *in, float *out)
      : slot(slot), in(in), out(out) {}

  __device__ void claim(int first, int count) {
    if (threadIdx.x % 32 == 0) {
      slot->begin = first;
      slot->end = first + count;
    }
    __syncwarp();
    begin = slot->begin + threadIdx.x % 4;
    end = slot->end;
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
  Range *slot;
  const float *in;
  float *out;
  int begin;
  int end;
};

__global__ void skewed_kernel(Range *slots, const float *in, float *out, int count) {
  Range *mine = slots + (blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32);
  SkewedQueue q(mine, in, out);
  q.run(blockIdx.x * count, count);
}
