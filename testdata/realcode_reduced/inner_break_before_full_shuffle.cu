// Formerly a known false positive (testdata/pending/README.md); fixed, so it must stay clean.
// Lane 0 finds where each run of equal keys ends (leaving its scan with
// `break`) and broadcasts it; the loop over runs stops on the broadcast
// value, so all lanes iterate together and every shuffle is reached by the
// whole warp.
__global__ __launch_bounds__(64) void runs_broadcast(const int *keys, int *out, int rows) {
  const int lane = threadIdx.x % 32;
  int begin = 0;
  int count = 0;
  for (int it = 0; it < rows; it++) {
    if (begin >= rows) {
      break;
    }
    int end = rows;
    if (lane == 0) {
      int key = keys[begin];
      for (int probe = begin + 1; probe < rows; probe++) {
        if (keys[probe] != key) {
          end = probe;
          break;
        }
      }
    }
    end = __shfl_sync(0xffffffffu, end, 0);
    begin = end;
    count++;
  }
  out[blockIdx.x * 64 + threadIdx.x] = count;
}
