// Top-k gating kernels split each warp into row groups: `kLanes`
// consecutive lanes share one row, and `kLanes` is derived from template
// values (`kItems / kPerLane`) that no launch in the file binds. The
// kernel's `static_assert`s say what every instantiation has: `kLanes` is
// a power of two dividing the warp.
//
// Lanes leave in whole row groups (`row` is the same for the `kLanes`
// lanes of a group), and a width-`kLanes` butterfly reads only lanes of
// the caller's own group: every lane it reads is still running, and the
// lanes that left are excused from the full mask. The executor's runs
// must keep the assertions (a `kLanes` of 5 is no instantiation), and a
// run that reaches the shuffle and ends contests the static evidence even
// where other runs were cut short by a long `kPerLane` loop.
//
// The look-alike butterflies across two row groups (width `2 * kLanes`):
// a lane of a live row reads the lanes of a row that left.

template <int kPerLane, int kItems>
__global__ void row_max_groups(const float *in, float *out, int rows) {
  constexpr int kLanes = kItems / kPerLane;
  static_assert(32 % kLanes == 0, "a row's lanes divide the warp");
  static_assert(kLanes == (kLanes & -kLanes), "a power of two");
  const int row = blockIdx.x * (32 / kLanes) + threadIdx.x / kLanes;
  if (row >= rows) return;
  float v[kPerLane];
  for (int i = 0; i < kPerLane; ++i)
    v[i] = in[row * kItems + (threadIdx.x % kLanes) * kPerLane + i];
  float m = v[0];
  for (int i = 1; i < kPerLane; ++i) m = fmaxf(m, v[i]);
  for (int off = kLanes / 2; off > 0; off /= 2)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, off, kLanes));
  out[row] = m;
}

template <int kPerLane, int kItems>
__global__ void row_max_across_groups(const float *in, float *out, int rows) {
  constexpr int kLanes = kItems / kPerLane;
  static_assert(32 % kLanes == 0, "a row's lanes divide the warp");
  static_assert(kLanes == (kLanes & -kLanes), "a power of two");
  static_assert(kLanes < 32, "two rows per butterfly");
  const int row = blockIdx.x * (32 / kLanes) + threadIdx.x / kLanes;
  if (row >= rows) return;
  float v[kPerLane];
  for (int i = 0; i < kPerLane; ++i)
    v[i] = in[row * kItems + (threadIdx.x % kLanes) * kPerLane + i];
  float m = v[0];
  for (int i = 1; i < kPerLane; ++i) m = fmaxf(m, v[i]);
  for (int off = kLanes; off > 0; off /= 2)
    m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, off, 2 * kLanes)); // expect: WL002
  out[row] = m;
}
