// The header's agent and its alias, from the kernel that instantiates
// them: the 32-lane instance's shift from lanes 0-15 is a bug (reported
// once, in the header), the 16-lane instance's from the same lanes is not.
// The kernel's own temporary through its own alias, likewise.
// strict: WL002
#include <blk/exchange.cuh>

__global__ void whole_agent(float* p) {
  __shared__ WarpShift<float, 32>::Scratch scratch;
  p[threadIdx.x] = Agent<128, 32>(scratch).Step(p[threadIdx.x]);
}

__global__ void half_agent(float* p) {
  __shared__ WarpShift<float, 16>::Scratch scratch;
  p[threadIdx.x] = Agent<128, 16>(scratch).Step(p[threadIdx.x]);
}

__global__ void own_alias(float* p) {
  using Shift = WarpShift<float, 32>;
  __shared__ Shift::Scratch scratch;
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = Shift(scratch).Up(p[threadIdx.x]); // expect: WL002
  }
}

__global__ void own_alias_half(float* p) {
  using Shift = WarpShift<float, 16>;
  __shared__ Shift::Scratch scratch;
  if (threadIdx.x % 32 < 16) {
    p[threadIdx.x] = Shift(scratch).Up(p[threadIdx.x]);
  }
}

void launch_all(float* p) {
  whole_agent<<<4, 128>>>(p);
  half_agent<<<4, 128>>>(p);
  own_alias<<<4, 128>>>(p);
  own_alias_half<<<4, 128>>>(p);
}
