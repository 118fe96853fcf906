// A warp-reduce class shaped like CUB's: the constructor keeps a reference
// to per-block scratch storage and the lane id; the member reduces through
// shared memory.
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned lane_index() {
    unsigned r;
    asm("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
}

template <typename T>
struct ScratchWarpSum {
    static constexpr int LANES = 32;
    static constexpr int HALF = LANES / 2;
    struct TempStorage {
        T slots[2 * LANES];
    };

    TempStorage &temp_storage;
    unsigned lane_id;

    __device__ ScratchWarpSum(TempStorage &storage)
        : temp_storage(storage), lane_id(lane_index()) {}

    // Lockstep-era code: another lane's slot is read with no barrier after
    // it was written.
    __device__ T sum(T x) {
        temp_storage.slots[lane_id] = x;
        x += temp_storage.slots[lane_id + HALF]; // expect: WL004
        return x;
    }
};

template <typename T>
struct FencedWarpSum {
    enum { LANES = 32 };
    struct TempStorage {
        T slots[2 * LANES];
    };

    TempStorage &temp_storage;
    unsigned lane_id;

    __device__ FencedWarpSum(TempStorage &storage)
        : temp_storage(storage), lane_id(threadIdx.x % 32) {}

    // The same exchange with the writes and reads in separate phases.
    __device__ T sum(T x) {
        temp_storage.slots[lane_id] = x;
        __syncwarp();
        T other = temp_storage.slots[lane_id + LANES / 2];
        __syncwarp();
        return x + other;
    }
};

__global__ void warp_sums(const int *in, int *out) {
    __shared__ typename ScratchWarpSum<int>::TempStorage racy;
    __shared__ typename FencedWarpSum<int>::TempStorage fenced;
    int v = in[threadIdx.x];
    out[threadIdx.x] = ScratchWarpSum<int>(racy).sum(v) + FencedWarpSum<int>(fenced).sum(v);
}
