// strict: WL007
// Guards and loops that cut a block only at its own boundaries.
//
// A column tile of 128 columns per block, at most 128 threads per block
// (`__launch_bounds__`): `blockIdx.y * 128 + threadIdx.x < 4096` holds in
// every thread of a block or in none, because 4096 is a whole number of
// tiles, so the barrier under it is reached by the whole block (clean).
// With a column count the code does not state to be a multiple of 128 the
// last tile may be cut inside the block (finding).
//
// A block-stride loop whose bound is rounded up to a multiple of
// `blockDim.x` runs as often in every thread, so the barrier in its body
// is reached by the whole block each time (clean); the same loop over the
// raw element count leaves the short threads behind (finding).

__global__ __launch_bounds__(128) void scale_tiles(const float *in, float *out, const int *rows) {
  __shared__ float tile[128];
  const int t = threadIdx.x;
  const int col = blockIdx.y * 128 + t;
  if (col < 4096 && rows[blockIdx.x] > 0) {
    tile[t] = in[col];
    __syncthreads();
    out[col] = tile[127 - t];
  }
}

__global__ __launch_bounds__(128) void scale_tiles_ragged(const float *in, float *out, int cols) {
  __shared__ float tile[128];
  const int t = threadIdx.x;
  const int col = blockIdx.y * 128 + t;
  if (cols > col) {
    tile[t] = in[col];
    __syncthreads(); // expect: WL007
    out[col] = tile[127 - t];
  }
}

template <int kVec>
__device__ void convert_in_place(float *data, int count) {
  const int vectors = count / kVec;
  const int rounded = ((vectors + blockDim.x - 1) / blockDim.x) * blockDim.x;
  for (int v = threadIdx.x; v < rounded; v += blockDim.x) {
    const bool mine = v < vectors;
    float x = 0.f;
    if (mine) x = data[v];
    __syncthreads();
    if (mine) data[v] = x * 0.5f;
  }
}

template <int kVec>
__device__ void convert_in_place_raw(float *data, int count) {
  const int vectors = count / kVec;
  for (int v = threadIdx.x; v < vectors; v += blockDim.x) {
    float x = data[v];
    __syncthreads(); // expect: WL007
    data[v] = x * 0.5f;
  }
}

__global__ void convert(float *data, int count) { convert_in_place<4>(data, count); }

__global__ void convert_raw(float *data, int count) { convert_in_place_raw<4>(data, count); }
