// A field the constructor computes from one of its arguments is as
// uniform as that argument. Here each thread builds its pipeline from its
// own lane parity, so half the threads of every warp return from
// `finish_packet` before the barrier the others wait at.
// (`ctor_computed_field.cu` builds the same pipeline from a block-uniform
// flag: no finding there.)
// strict: WL007

template <int kPerStep>
struct Config {
  static constexpr int kPackets = kPerStep;
};

template <typename Cfg>
class ParityPipeline {
 public:
  __device__ ParityPipeline(int* slot, bool even) : slot_(slot) {
    step_ = 0;
    packet_ = even ? 0 : Cfg::kPackets - 1;
  }

  __device__ void finish_packet() {
    packet_++;
    if (packet_ < Cfg::kPackets) {
      return;
    }
    __syncthreads(); // expect: WL007
    if (threadIdx.x == 0) {
      *slot_ = step_ + 1;
    }
    __syncthreads(); // expect: WL007
    step_ = *slot_;
    packet_ = 0;
  }

 private:
  int* slot_;
  int step_;
  int packet_;
};

template <typename Cfg>
__global__ void send_packets_skewed(int* out, int count) {
  __shared__ int step;
  bool even = threadIdx.x % 2 == 0;
  ParityPipeline<Cfg> pipeline(&step, even);
  for (int base = 0; base < count; base += 64) {
    out[base + threadIdx.x] = base;
    pipeline.finish_packet();
  }
}
