// strict: WL002
// A softmax role gives each lane one row: `row = half * 32 + lane`, and the
// row inside the request is `tile * 128 + row`. How many rows of the tile
// remain is computed from `row_in_req - row`, in which the lane term
// cancels: the same for the whole warp, so the bulk path that ends in
// `__syncwarp()` is taken by whole warps (clean). The look-alike subtracts
// a different lane term than the row holds: a finding. (Rows stored in a
// byte, cast, or held in 64 bits are tested in `dataflow`'s unit tests:
// the executor does not model a narrowing store.)

__device__ __forceinline__ unsigned broadcast_lane0(unsigned v) {
  unsigned r;
  asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v));
  return r;
}

__global__ void rows_left_in_tile(const int *tiles, float *out, int rows, int first, int last) {
  const int tid = threadIdx.x;
  const int warp = broadcast_lane0(tid / 32);
  const int lane = tid % 32;
  if (warp < 4) {
    int half = broadcast_lane0(warp % 4);
    int row = half % 2 * 32 + lane;
    for (int item = first; item < last; item += 2) {
      int tile = tiles[item];
      int row_in_req = tile * 128 + row;
      int left = rows - (row_in_req - row);
      int bulk = left >= 64;
      if (bulk != 0) {
        out[row_in_req] = 1.0f;
        __syncwarp();
      }
    }
  }
}

__global__ void rows_left_other_lane(float *out) {
  const int tid = threadIdx.x;
  const int lane = tid % 32;
  int row = lane * 2;
  int tile = blockIdx.x;
  int row_in_req = tile * 128 + row;
  int left = tile * 128 + 80 - (row_in_req - lane);
  if (left >= 64) {
    out[row_in_req] = 1.0f;
    __syncwarp(); // expect: WL002
  }
}
