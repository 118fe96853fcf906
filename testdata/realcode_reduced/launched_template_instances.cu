// strict: WL002
// A kernel template whose warp code is right only for the template
// arguments it is launched with. `slots_kernel` splits a 256-thread block
// into `Slots` slots; a slot past the end does no work. With `WarpLoad`
// set, a slot's lanes broadcast a coefficient with a full-mask shuffle,
// which is right only when a slot is whole warps (Slots = 4: 64 threads a
// slot). The
// host launches it through a launcher template, as `launch_slots<4, true>`
// and `launch_slots<1, false>`: every instance with `WarpLoad` has
// 64-thread slots (clean).
//
// The look-alike is launched as `launch_narrow<16, true>` as well: 16-thread
// slots, so a slot past the end leaves half a warp named in the mask of a
// shuffle it never reaches (finding).

constexpr int kThreads = 256;

template <int Slots, bool WarpLoad>
__global__ __launch_bounds__(kThreads) void slots_kernel(const float *coef, float *out,
                                                          long long n) {
  constexpr int per_slot = kThreads / Slots;
  const int slot = threadIdx.x / per_slot;
  const long long item = static_cast<long long>(blockIdx.x) * Slots + slot;
  float c = 0.0f;
  if constexpr (WarpLoad) {
    if (item < n) {
      float mine = coef[item * 32 + threadIdx.x % 32];
      c = __shfl_sync(0xffffffff, mine, 0);
    }
  } else {
    if (item >= n) {
      return;
    }
    c = coef[item];
  }
  out[item * per_slot + threadIdx.x % per_slot] = c;
}

template <int Slots, bool WarpLoad>
void launch_slots(const float *coef, float *out, long long n, cudaStream_t s) {
  const unsigned blocks = static_cast<unsigned>((n + Slots - 1) / Slots);
  slots_kernel<Slots, WarpLoad><<<blocks, kThreads, 0, s>>>(coef, out, n);
}

void run_slots(const float *coef, float *out, long long n, bool wide, cudaStream_t s) {
  if (wide) {
    launch_slots<4, true>(coef, out, n, s);
  } else {
    launch_slots<1, false>(coef, out, n, s);
  }
}

template <int Slots, bool WarpLoad>
__global__ __launch_bounds__(kThreads) void narrow_kernel(const float *coef, float *out,
                                                           long long n) {
  constexpr int per_slot = kThreads / Slots;
  const int slot = threadIdx.x / per_slot;
  const long long item = static_cast<long long>(blockIdx.x) * Slots + slot;
  float c = 0.0f;
  if constexpr (WarpLoad) {
    if (item < n) {
      float mine = coef[item * 32 + threadIdx.x % 32];
      c = __shfl_sync(0xffffffff, mine, 0); // expect: WL002
    }
  } else {
    if (item >= n) {
      return;
    }
    c = coef[item];
  }
  out[item * per_slot + threadIdx.x % per_slot] = c;
}

template <int Slots, bool WarpLoad>
void launch_narrow(const float *coef, float *out, long long n, cudaStream_t s) {
  const unsigned blocks = static_cast<unsigned>((n + Slots - 1) / Slots);
  narrow_kernel<Slots, WarpLoad><<<blocks, kThreads, 0, s>>>(coef, out, n);
}

void run_narrow(const float *coef, float *out, long long n, bool wide, cudaStream_t s) {
  if (wide) {
    launch_narrow<4, true>(coef, out, n, s);
  } else {
    launch_narrow<16, true>(coef, out, n, s);
  }
}
