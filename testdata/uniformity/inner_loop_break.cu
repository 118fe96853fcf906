// strict: WL002, WL007
// Lane 0 scans a list for the end of a run and leaves the *scan* loop with
// `break`; the broadcast after the `if` is reached by every lane again, so
// its full mask is right. A `break` belongs to the innermost loop around
// it: it does not take lane 0 out of the enclosing code. In the look-alike
// the `break` leaves the outer loop itself, so lane 0 is gone while the
// other lanes go on to the full-mask broadcast.
__global__ void run_lengths(const int *keys, int n, int *out) {
    int lane = threadIdx.x % 32;
    for (int start = 0; start < n; start += 32) {
        int end = n;
        if (lane == 0) {
            for (int probe = start + 1; probe < n; probe++) {
                if (keys[probe] != keys[start]) {
                    end = probe;
                    break;
                }
            }
        }
        end = __shfl_sync(0xffffffff, end, 0);
        out[start / 32] = end;
    }
}

__global__ void run_lengths_leaving(const int *keys, int n, int *out) {
    int lane = threadIdx.x % 32;
    for (int start = 0; start < n; start += 32) {
        int end = n;
        if (lane == 0) {
            if (keys[start] < 0)
                break;
            end = start + 1;
        }
        end = __shfl_sync(0xffffffff, end, 0); // expect: WL002
        out[start / 32] = end;
    }
}
