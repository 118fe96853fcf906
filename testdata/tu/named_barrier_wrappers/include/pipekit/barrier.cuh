// A library's named-barrier wrapper, in the shape GEMM libraries write it:
// a thread count and a barrier id, PTX underneath. Its callers decide which
// warps take part.
#pragma once

namespace pipekit {

struct NamedBarrier {
    static __device__ __forceinline__ void sync(unsigned threads, unsigned id) {
        asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
    }
    static __device__ __forceinline__ void arrive(unsigned threads, unsigned id) {
        asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
    }
};

} // namespace pipekit
