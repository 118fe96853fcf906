// strict: WL007, WL002
// Kernel classes as CUTLASS writes them: `operator()(Params const&,
// SharedStorage&)` is the whole block's work, run by a generic kernel of
// another header (device/launch.cu) with the kernel's own parameter, the
// same in every thread. A branch on a field of `params` is taken by the
// whole block; one on the thread index is not.
#pragma once

namespace kernel {

template <typename T>
struct RowScale {
    struct Params {
        const T *in;
        T *out;
        int rows;
        int pass;
    };
    struct SharedStorage {
        T tile[128];
    };

    // Look-alike: `params.pass` is the launch's, one value for the block.
    __device__ void operator()(Params const &params, SharedStorage &storage) {
        storage.tile[threadIdx.x] = params.in[blockIdx.x * 128 + threadIdx.x];
        if (params.pass > 0) {
            __syncthreads();
            params.out[blockIdx.x * 128 + threadIdx.x] = storage.tile[127 - threadIdx.x];
        }
        T v = params.out[threadIdx.x];
        if (params.rows > 1)
            v += __shfl_xor_sync(0xffffffffu, v, 1);
        params.out[threadIdx.x] = v;
    }
};

template <typename T>
struct RowScalePartial {
    struct Params {
        const T *in;
        T *out;
        int rows;
    };
    struct SharedStorage {
        T tile[128];
    };

    // The barrier waits for the threads below `rows` only.
    __device__ void operator()(Params const &params, SharedStorage &storage) {
        storage.tile[threadIdx.x] = params.in[blockIdx.x * 128 + threadIdx.x];
        if (threadIdx.x < params.rows) {
            __syncthreads(); // expect: WL007
            params.out[blockIdx.x * 128 + threadIdx.x] = storage.tile[127 - threadIdx.x];
        }
    }
};

} // namespace kernel
