// strict: WL004
// Lanes of a warp storing into one shared slot without a barrier between
// them. The programming guide leaves undefined only *which* lane's write
// lands last, so lanes that all store the same value (`seen[warp] = 1`,
// the usual "some lane saw it" flag) leave the slot as any order would:
// clean. Lanes storing different values (`owner[warp] = lane`) leave a
// value that depends on the schedule, and the reader after `__syncwarp()`
// gets whichever lane came last (finding).

__global__ void mark_warps(const int *in, int *out) {
  __shared__ int seen[4];
  __shared__ int owner[4];
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  seen[warp] = 1;
  owner[warp] = lane; // expect: WL004
  __syncwarp();
  out[threadIdx.x] = seen[warp] + owner[warp] + in[threadIdx.x];
}

void launch(const int *in, int *out) { mark_warps<<<1, 128>>>(in, out); }
