// Formerly a known false positive (testdata/pending/README.md); fixed, so it must stay clean.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// `block.sync()` on the thread block group is a block-wide barrier: the
// offsets written before it are visible to every thread after it.
__global__ __launch_bounds__(128) void offsets_then_load(const int *pages, float *out, const float *data) {
  __shared__ int offset[128];
  cg::thread_block block = cg::this_thread_block();
  const int tx = threadIdx.x;
  if (tx < 64) {
    offset[tx] = pages[blockIdx.x * 64 + tx] * 4;
  }
  block.sync();
  if (tx < 64) {
    out[blockIdx.x * 128 + tx] = data[offset[(tx + 8) % 64]];
  }
}
