// The library's one compiled file: it instantiates nothing, it only
// includes the kernels so that the build compiles them.
#include "../select/select.cuh"

void launch_row_extremes(const float *rows, float *lo, float *hi, int n,
                         cudaStream_t stream) {
  select::row_extremes<<<n, geometry::kBlockThreads, 0, stream>>>(rows, lo, hi);
}
