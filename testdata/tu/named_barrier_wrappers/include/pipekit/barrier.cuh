// A library's named-barrier wrapper, in the shape GEMM libraries write it:
// a thread count and a barrier id, PTX underneath. Its callers decide which
// warps take part.
#pragma once

namespace pipekit {

// Barrier 0 is `__syncthreads()`'s; the library keeps a few ids for itself.
enum class ReservedBarrier : unsigned { Epilogue = 1, Transpose = 2, FirstUser = 4 };

struct NamedBarrier {
    static __device__ __forceinline__ void sync(unsigned threads, unsigned id) {
        asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
    }
    static __device__ __forceinline__ void arrive(unsigned threads, unsigned id) {
        asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
    }
    static __device__ __forceinline__ void sync(unsigned threads, ReservedBarrier id) {
        sync(threads, static_cast<unsigned>(id));
    }
    static __device__ __forceinline__ void arrive(unsigned threads, ReservedBarrier id) {
        arrive(threads, static_cast<unsigned>(id));
    }
};

} // namespace pipekit
