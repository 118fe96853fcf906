// `if constexpr` conditions are constant expressions: every thread of the
// grid takes the same arm, whatever names the condition reads (an
// enclosing class template's parameter, a trait, a traits class's member
// the file does not define). They never split a warp or a block, and a
// run picks their values as it picks a template's own, so the code inside
// each arm is run with the whole warp.
// strict: WL002, WL006, WL007

#include <type_traits>

template <int kPairs, class T>
struct PairMerge {
    // A class nested in a class template: `kPairs` is still one value.
    struct Partial {
        T lo;
        T hi;

        // Every lane of the warp calls this; the narrowed mask leaves lanes
        // 16-31 out whenever the two-pair arm is compiled.
        __device__ void exchange(int distance) {
            if constexpr (kPairs == 2) {
                lo = __shfl_xor_sync(0x0000ffff, lo, distance); // expect: WL006
            } else {
                hi = __shfl_xor_sync(0xffffffff, hi, distance);
            }
        }

        // Look-alike: the full mask in both arms, which the condition does
        // not take apart.
        __device__ void exchange_whole_warp(int distance) {
            if constexpr (kPairs == 2) {
                lo = __shfl_xor_sync(0xffffffff, lo, distance);
            } else {
                hi = __shfl_xor_sync(0xffffffff, hi, distance);
            }
        }
    };
};

// A trait the run cannot evaluate is one value, tried both ways.
template <class T>
__device__ T swap_halves(T v) {
    if constexpr (std::is_same_v<T, double>) {
        return __shfl_xor_sync(0x0000ffff, v, 16); // expect: WL006
    } else {
        return __shfl_xor_sync(0xffffffff, v, 16);
    }
}

// Look-alike: the same dispatch with the full mask everywhere.
template <class T>
__device__ T swap_halves_ok(T v) {
    if constexpr (std::is_same_v<T, double>) {
        return __shfl_xor_sync(0xffffffff, v, 16);
    } else {
        return __shfl_xor_sync(0xffffffff, v, 16);
    }
}

// A block barrier under a traits class's switch the file never defines:
// the whole block takes the arm or none does.
template <class Config>
__global__ void staged_copy(const float *in, float *out, int n) {
    __shared__ float stage[256];
    int t = threadIdx.x;
    if constexpr (Config::kStaged) {
        stage[t] = t < n ? in[blockIdx.x * 256 + t] : 0.0f;
        __syncthreads();
        out[blockIdx.x * 256 + t] = stage[255 - t];
    } else {
        if (t < n) out[blockIdx.x * 256 + t] = in[blockIdx.x * 256 + t];
    }
}

// The positive twin: inside the compiled arm, only the threads below `n`
// reach the barrier.
template <class Config>
__global__ void staged_copy_tail(const float *in, float *out, int n) {
    __shared__ float stage[256];
    int t = threadIdx.x;
    if constexpr (Config::kStaged) {
        if (t < n) {
            stage[t] = in[blockIdx.x * 256 + t];
            __syncthreads(); // expect: WL007
            out[blockIdx.x * 256 + t] = stage[n - 1 - t];
        }
    }
}
