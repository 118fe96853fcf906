// A member called on a temporary the expression constructs: CUB's
// documented form `WarpReduce(temp_storage).Sum(x)`, with the class named
// directly, through an alias the body declares, or through one its class
// declares (CUB's agents: `typedef BlockExchange<…> BlockExchangeT;` in the
// class, `BlockExchangeT(temp.exchange).Scatter(…)` in a member). Before,
// the member of a temporary was an unknown call: a half warp running a
// whole-warp reduction was missed in every form.
// strict: WL002

template <typename T, int Lanes>
struct Reducer {
  struct Scratch {
    T slots[32];
  };
  Scratch& scratch;
  __device__ explicit Reducer(Scratch& s) : scratch(s) {}
  __device__ T Sum(T v) {
    for (int o = Lanes / 2; o > 0; o /= 2) {
      v += __shfl_xor_sync(0xffffffffu >> (32 - Lanes), v, o, Lanes);
    }
    return v;
  }
};

// Lanes 0-15 of each warp run a reduction whose mask names all 32.
__global__ void named_whole(float* p) {
  __shared__ Reducer<float, 32>::Scratch scratch[4];
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = Reducer<float, 32>(scratch[threadIdx.x / 32]).Sum(p[threadIdx.x]); // expect: WL002
  }
}

__global__ void alias_whole(float* p) {
  typedef Reducer<float, 32> Reduce;
  __shared__ Reduce::Scratch scratch[4];
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = Reduce(scratch[threadIdx.x / 32]).Sum(p[threadIdx.x]); // expect: WL002
  }
}

// Look-alike: the same lanes run a 16-lane reduction.
__global__ void alias_half(float* p) {
  using Reduce = Reducer<float, 16>;
  __shared__ Reduce::Scratch scratch[4];
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = Reduce(scratch[threadIdx.x / 32]).Sum(p[threadIdx.x]);
  }
}

// Aliases a class declares serve its members.
template <int Threads>
struct Stage {
  typedef Reducer<float, 32> Whole;
  using Half = Reducer<float, 16>;
  typename Whole::Scratch& scratch;
  __device__ explicit Stage(typename Whole::Scratch& s) : scratch(s) {}
  __device__ float whole_from_half(float v) {
    if (threadIdx.x % 32 < 16) {
      v = Whole(scratch).Sum(v); // expect: WL002
    }
    return v;
  }
  __device__ float half_from_half(float v) {
    if (threadIdx.x % 32 < 16) {
      v = Half(scratch).Sum(v);
    }
    return v;
  }
  __device__ float whole_object(float v) {
    Whole reduce(scratch);
    if (threadIdx.x % 32 < 16) {
      v = reduce.Sum(v); // expect: WL002
    }
    return v;
  }
};

__global__ void stage_kernel(float* p) {
  __shared__ Reducer<float, 32>::Scratch scratch;
  Stage<128> stage(scratch);
  float v = p[threadIdx.x];
  v = stage.whole_from_half(v);
  v = stage.half_from_half(v);
  p[threadIdx.x] = stage.whole_object(v);
}

void launch_all(float* p) {
  named_whole<<<4, 128>>>(p);
  alias_whole<<<4, 128>>>(p);
  alias_half<<<4, 128>>>(p);
  stage_kernel<<<4, 128>>>(p);
}
