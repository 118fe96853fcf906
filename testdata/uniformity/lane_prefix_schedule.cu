// A grouped scheduler, as grouped GEMMs write one: each warp walks the
// problems 32 at a time, lane i sizing problem `first + i`, sums the tiles
// with a shuffle prefix sum, and broadcasts the totals (`__shfl_sync` from
// one lane, `__popc(__ballot_sync(…))`). Each value is one per warp, and
// every warp computes the same one: lane i of every warp reads the same
// problem. So the tile loop around `__syncthreads()` runs alike in the
// whole block: clean at the default level. Before, WL007 took the
// broadcasts for values that may differ between warps and showed the
// barrier as direct evidence. (The sound analysis still proposes it, so
// `--min-confidence all` lists a speculative candidate no run confirms.)
//
// `Skewed` sizes problem `first + threadIdx.x` instead: each warp sums
// other problems, its totals differ, and warps leave the loop at
// different times (finding).

struct Scheduler {
  const int* rows;
  int count;
  int tile;
  int first;
  int end_tile;
  int mine;
  __device__ Scheduler(const int* r, int n, int t) : rows(r), count(n), tile(t), first(0), end_tile(0), mine(0) {}
  __device__ bool next(int block_tile) {
    while (end_tile <= block_tile) {
      if (first >= count) {
        return false;
      }
      int lane = threadIdx.x % 32;
      mine = 0;
      if (first + lane < count) {
        mine = (rows[first + lane] + 127) / 128;
      }
      for (int d = 1; d < 32; d <<= 1) {
        int below = __shfl_up_sync(0xffffffff, mine, d);
        if (lane >= d) {
          mine += below;
        }
      }
      end_tile += __shfl_sync(0xffffffff, mine, 31);
      first += 32;
    }
    tile = __popc(__ballot_sync(0xffffffff, mine <= block_tile));
    return true;
  }
};

struct Skewed {
  const int* rows;
  int count;
  int first;
  int end_tile;
  int mine;
  __device__ Skewed(const int* r, int n) : rows(r), count(n), first(0), end_tile(0), mine(0) {}
  __device__ bool next(int block_tile) {
    while (end_tile <= block_tile) {
      if (first >= count) {
        return false;
      }
      int lane = threadIdx.x % 32;
      mine = 0;
      if (first + threadIdx.x < count) {
        mine = (rows[first + threadIdx.x] + 127) / 128;
      }
      for (int d = 1; d < 32; d <<= 1) {
        int below = __shfl_up_sync(0xffffffff, mine, d);
        if (lane >= d) {
          mine += below;
        }
      }
      end_tile += __shfl_sync(0xffffffff, mine, 31);
      first += 32;
    }
    return true;
  }
};

__global__ void grouped(const int* rows, int n, float* out) {
  __shared__ float stage[256];
  Scheduler s(rows, n, 0);
  int t = blockIdx.x;
  while (s.next(t)) {
    stage[threadIdx.x] = out[t * 256 + threadIdx.x];
    __syncthreads();
    out[t * 256 + threadIdx.x] = stage[255 - threadIdx.x];
    __syncthreads();
    t += gridDim.x;
  }
}

__global__ void grouped_skewed(const int* rows, int n, float* out) {
  __shared__ float stage[256];
  Skewed s(rows, n);
  int t = blockIdx.x;
  while (s.next(t)) {
    stage[threadIdx.x] = out[t * 256 + threadIdx.x];
    __syncthreads(); // expect: WL007
    out[t * 256 + threadIdx.x] = stage[255 - threadIdx.x];
    __syncthreads(); // expect: WL007
    t += gridDim.x;
  }
}

void launch(const int* rows, int n, float* out) {
  grouped<<<16, 256>>>(rows, n, out);
  grouped_skewed<<<16, 256>>>(rows, n, out);
}
