// Attribute macros where a declaration specifier cannot go in the grammar:
// between the return type and the name (`int LIB_HOST_DEVICE f(`). The
// macros are defined in a header this file does not include.

template <class T>
T LIB_HOST_DEVICE partial_sum(T v) {
    if (threadIdx.x < 20) {
        v += __popc(__ballot_sync(0xffffffff, v > 0)); // expect: WL002
    }
    return v;
}

template <class T>
T LIB_HOST_DEVICE full_sum(T v) {
    v += __shfl_down_sync(0xffffffff, v, 1);
    return v;
}

// After an alias name, before a parameter's type, and between a lambda's
// parameters and its body.
template <class T>
__global__ void scaled_rows(LIB_GRID_CONSTANT T* const rows, int n) {
    using value_t LIB_NODEBUG = T;
    value_t v = rows[threadIdx.x];
    auto step = [&](int k) LIB_LAMBDA_INLINE {
        if (threadIdx.x < k) {
            v = __shfl_up_sync(0xffffffff, v, 1); // expect: WL002
        }
    };
    step(n);
    rows[threadIdx.x] = v;
}

template <class T>
__global__ void scaled_rows_clean(LIB_GRID_CONSTANT T* const rows) {
    using value_t LIB_NODEBUG = T;
    value_t v = rows[threadIdx.x];
    auto step = [&](int k) LIB_LAMBDA_INLINE { v = __shfl_up_sync(0xffffffff, v, k); };
    step(1);
    rows[threadIdx.x] = v;
}

// `friend` after the CUDA specifiers.
struct Pair {
    int a;
    __host__ __device__ friend int operator+(const Pair& x, const Pair& y) {
        int s = x.a + y.a;
        if (threadIdx.x == 0) {
            s = __any_sync(0xffffffff, s > 0); // expect: WL002
        }
        return s;
    }
    __host__ __device__ friend int operator-(const Pair& x, const Pair& y) {
        return __shfl_sync(0xffffffff, x.a - y.a, 1);
    }
};

// After a template header whose last default is a template-id, so that
// the header ends in the token `>>` (`class Env = lib_env<>>`).
template <class... T> struct lib_env {};
struct Dispatch {
    template <class T, class Env = lib_env<>>
    LIB_RUNTIME_FUNCTION static T partial(T v, Env = {}) {
        if (threadIdx.x < 20) {
            v += __shfl_xor_sync(0xffffffff, v, 1); // expect: WL002
        }
        return v;
    }
};
