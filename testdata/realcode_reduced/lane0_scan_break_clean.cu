// Lane 0 scans for the end of a run and leaves the scan with `break`; every
// lane then takes the broadcast result with a full-mask shuffle.
__global__ __launch_bounds__(64) void run_end_broadcast(const int *keys, int *out, int rows) {
  const int lane = threadIdx.x % 32;
  int first = keys[0];
  int end = rows;
  if (lane == 0) {
    if (first != keys[rows - 1]) {
      for (int probe = 1; probe < rows; probe++) {
        if (keys[probe] != first) {
          end = probe;
          break;
        }
      }
    }
  }
  end = __shfl_sync(0xffffffffu, end, 0);
  out[blockIdx.x * 64 + threadIdx.x] = end;
}
