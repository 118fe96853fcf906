// A reduction library's warp-level helpers: they work on whatever shared
// array the caller hands them. Alone, the header says nothing of what its
// pointers point to; checked with the files that call them, it does.
#pragma once

// The lockstep tail: correct only if lanes ran in lockstep, which
// independent thread scheduling does not promise.
__device__ inline void warp_tail(volatile float *s, int tid) {
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16]; // expect: WL004
    s[tid] += s[tid + 8];  // expect: WL004
    s[tid] += s[tid + 4];  // expect: WL004
    s[tid] += s[tid + 2];  // expect: WL004
    s[tid] += s[tid + 1];  // expect: WL004
}

// The same tail with the exchange split by `__syncwarp()`: clean.
__device__ inline void warp_tail_synced(float *s, int tid) {
    for (int o = 32; o > 0; o >>= 1) {
        float other = s[tid + o];
        __syncwarp();
        s[tid] += other;
        __syncwarp();
    }
}

// A per-warp scratch area the caller places in its shared memory.
class WarpSlots {
  public:
    __device__ explicit WarpSlots(int *slots) : slots_(slots), lane_(threadIdx.x & 31) {}

    // Every lane adds its right neighbour's count, which that neighbour
    // is updating in the same statement.
    __device__ int shift_add(int v) {
        slots_[lane_] = v;
        __syncwarp();
        slots_[lane_] += slots_[(lane_ + 1) & 31]; // expect: WL004
        __syncwarp();
        return slots_[lane_];
    }

  private:
    int *slots_;
    int lane_;
};
