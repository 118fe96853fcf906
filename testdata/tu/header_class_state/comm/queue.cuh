// Per-warp work queues in a header, as a communication library keeps
// them: the class holds its range as state (`begin`, `end`) that
// `claim()` writes and `run()` loops over; the kernels that build the
// queues are in another file (kernels/queue_kernels.cu).
//
// `WarpQueue` reads the range its warp's lane 0 published: the loop runs
// the same iterations in every lane of a warp (clean). `SkewedQueue`
// starts each lane at its own offset, so lanes leave the loop at
// different times while the others still name them in the full mask
// (finding, reported here with the calling kernel as a label).
#pragma once

class WarpQueue {
 public:
  __device__ WarpQueue(int *slot, const float *in, float *out)
      : slot(slot), in(in), out(out) {}

  __device__ void run(int first, int count) {
    claim(first, count);
    int lane = threadIdx.x % 32;
    while (begin < end) {
      float v = in[begin * 32 + lane];
      v += __shfl_down_sync(0xffffffff, v, 16);
      out[begin * 32 + lane] = v;
      begin += 1;
    }
  }

 private:
  __device__ void claim(int first, int count) {
    if (threadIdx.x % 32 == 0) {
      slot[0] = first;
      slot[1] = first + count;
    }
    __syncwarp();
    begin = slot[0];
    end = slot[1];
  }

  int *slot;
  const float *in;
  float *out;
  int begin;
  int end;
};

class SkewedQueue {
 public:
  __device__ SkewedQueue(int *slot, const float *in, float *out)
      : slot(slot), in(in), out(out) {}

  __device__ void run(int first, int count) {
    claim(first, count);
    int lane = threadIdx.x % 32;
    while (begin < end) {
      float v = in[begin * 32 + lane];
      v += __shfl_down_sync(0xffffffff, v, 16); // expect: WL002
      out[begin * 32 + lane] = v;
      begin += 1;
    }
  }

 private:
  __device__ void claim(int first, int count) {
    if (threadIdx.x % 32 == 0) {
      slot[0] = first;
      slot[1] = first + count;
    }
    __syncwarp();
    begin = slot[0] + lane_skew();
    end = slot[1];
  }

  __device__ int lane_skew() const { return threadIdx.x % 32 / 8; }

  int *slot;
  const float *in;
  float *out;
  int begin;
  int end;
};
