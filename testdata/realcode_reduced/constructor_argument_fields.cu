// strict: WL002
// A communicator class in the style of expert-parallel all-to-all code:
// the kernel builds one object per thread from its own parameters and
// calls its `run()`. A peer past the number of ranks leaves at once; the
// rest of `run()` exchanges a flag with a full-mask shuffle.
//
// `Exchange`'s fields `ranks` and `peer` come from the constructor. The
// kernel passes its parameter `world` (the same for every thread) and
// `blockIdx.x`: the early return is uniform, every lane reaches the
// shuffle (clean). A field set from a constructor argument is as uniform
// as what the constructions of its class pass there.
//
// The look-alike, `LaneExchange`, is built with a per-lane peer
// (`threadIdx.x % 8`): lanes past the rank count return while the rest
// name them in the full mask (finding). The lanes that return from
// `run()` stay alive (they still write `done`), so the mask names lanes
// that have not exited.

struct World {
  int ranks;
  int rank;
};

class Exchange {
 public:
  __device__ Exchange(World const &world, int peer, int *flags)
      : world(world), peer(peer), flags(flags) {}

  __device__ void run() {
    if (peer >= world.ranks) {
      return;
    }
    int mine = flags[peer];
    int theirs = __shfl_xor_sync(0xffffffff, mine, 1);
    flags[peer] = mine + theirs;
  }

 private:
  World const world;
  int const peer;
  int *flags;
};

__global__ void exchange_kernel(World world, int *flags, int *done) {
  Exchange ex(world, blockIdx.x, flags);
  ex.run();
  done[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

class LaneExchange {
 public:
  __device__ LaneExchange(World const &world, int peer, int *flags)
      : world(world), peer(peer), flags(flags) {}

  __device__ void run() {
    if (peer >= world.ranks) {
      return;
    }
    int mine = flags[peer];
    int theirs = __shfl_xor_sync(0xffffffff, mine, 1); // expect: WL002
    flags[peer] = mine + theirs;
  }

 private:
  World const world;
  int const peer;
  int *flags;
};

__global__ void lane_exchange_kernel(World world, int *flags, int *done) {
  int peer = threadIdx.x % 8;
  LaneExchange ex(world, peer, flags);
  ex.run();
  done[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
