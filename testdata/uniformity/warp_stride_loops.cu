// strict: WL002
//
// Histogram folds as cluster-wide top-k kernels write them: a loop over
// the bins, each thread starting at its own index and stepping by the
// block size, with a full-mask reduction in the body. When the bin count
// and the stride are multiples of 32, lane `l` of a warp stays in the loop
// while `32·w + j·stride + l < bins`, which holds for every lane of the
// warp or for none: the warp makes the same trips whole, even where the
// block size does not divide the bin count (some warps make one trip
// fewer, never part of one).
//
// The bin count comes from the caller's template argument (`fold<Ranks,
// kBins>` inside a kernel template over `Ranks`): the helper is analysed
// with `Bins` bound even though `Ranks` is not.

constexpr unsigned kBlock = 256;
constexpr unsigned kBins = 640;     // 2.5 blocks: warps 0-3 make 3 trips, 4-7 two
constexpr unsigned kRagged = 500;   // not a multiple of 32

template <unsigned Width>
__device__ __forceinline__ unsigned group_sum(unsigned v) {
  for (unsigned m = Width >> 1; m > 0; m >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, m, 32);
  return v;
}

template <unsigned Ranks, unsigned Bins>
__device__ void fold(unsigned *hist) {
  for (unsigned bin = threadIdx.x; bin < Bins; bin += kBlock) {
    hist[bin] = group_sum<Ranks>(hist[bin]);
  }
}

// Clean: 640 bins, a multiple of 32.
template <unsigned Ranks>
__global__ void __launch_bounds__(kBlock) fold_bins(unsigned *hist) {
  fold<Ranks, kBins>(hist);
}

// Look-alike: 500 bins. In warp 7 (threads 224-255) the lanes below 244
// make a second trip, the others leave: the shuffle names them anyway.
template <unsigned Ranks>
__global__ void __launch_bounds__(kBlock) fold_ragged(unsigned *hist) {
  for (unsigned bin = threadIdx.x; bin < kRagged; bin += kBlock) {
    hist[bin] = group_sum<Ranks>(hist[bin]); // expect: WL002
  }
}

// Look-alike: a stride of 48 threads splits lanes of one warp between
// trips whatever the bin count.
template <unsigned Ranks>
__global__ void __launch_bounds__(kBlock) fold_skewed(unsigned *hist) {
  for (unsigned bin = threadIdx.x; bin < kBins; bin += 48) {
    hist[bin] = group_sum<Ranks>(hist[bin]); // expect: WL002
  }
}

// Per-warp candidate scans round their trip count up to whole warps
// through a helper, so that every lane calls the warp-wide step as often.
namespace detail {
template <int Multiple, typename T>
__host__ __device__ constexpr T round_up(T len) {
  if (len == 0) {
    return 0;
  }
  return ((len - 1) / Multiple + 1) * Multiple;
}
}  // namespace detail

__device__ __forceinline__ float warp_max(float v) {
  for (int m = 16; m > 0; m >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, m));
  return v;
}

// Clean: 32-lane rounds; lanes past `n` contribute -inf.
__global__ void scan_rounded(const float *in, float *out, int n) {
  int lane = threadIdx.x % 32;
  int const rounds = detail::round_up<32>(n);
  float best = -INFINITY;
  for (int i = lane; i < rounds; i += 32) {
    float v = i < n ? in[i] : -INFINITY;
    best = fmaxf(best, warp_max(v));
  }
  out[threadIdx.x] = best;
}

// Look-alike: rounded to 16, so with n = 20 lanes 0-15 make a second trip
// that lanes 16-31 do not.
__global__ void scan_half_rounded(const float *in, float *out, int n) {
  int lane = threadIdx.x % 32;
  int const rounds = detail::round_up<16>(n);
  float best = -INFINITY;
  for (int i = lane; i < rounds; i += 32) {
    float v = i < n ? in[i] : -INFINITY;
    best = fmaxf(best, warp_max(v)); // expect: WL002
  }
  out[threadIdx.x] = best;
}

template __global__ void fold_bins<4>(unsigned *);
template __global__ void fold_ragged<4>(unsigned *);
template __global__ void fold_skewed<4>(unsigned *);
