// The launcher of kernels/slots.cuh: the only place that states the
// kernels' template arguments.
#include "../kernels/slots.cuh"

template <int Slots, bool WarpLoad>
void launch_slots(const float *coef, float *out, long long n, cudaStream_t s) {
  const unsigned blocks = static_cast<unsigned>((n + Slots - 1) / Slots);
  slots_kernel<Slots, WarpLoad><<<blocks, kThreads, 0, s>>>(coef, out, n);
}

template <int Slots, bool WarpLoad>
void launch_narrow(const float *coef, float *out, long long n, cudaStream_t s) {
  const unsigned blocks = static_cast<unsigned>((n + Slots - 1) / Slots);
  narrow_kernel<Slots, WarpLoad><<<blocks, kThreads, 0, s>>>(coef, out, n);
}

void run(const float *coef, float *out, long long n, int mode, cudaStream_t s) {
  if (mode == 0) {
    launch_slots<4, true>(coef, out, n, s);
    launch_narrow<4, true>(coef, out, n, s);
  } else if (mode == 1) {
    launch_slots<1, false>(coef, out, n, s);
  } else {
    launch_narrow<16, true>(coef, out, n, s);
  }
}
