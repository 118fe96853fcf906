// C++ that the grammar does not take as written: a temporary of a
// dependent type (`typename T::Shape{}`), and a braced default argument
// (`Opts o = {}`).

struct Opts {
    int width;
};

template <class Cfg>
__global__ void dependent_temporary(int *out) {
    int n = size(typename Cfg::Shape{});
    int v = out[threadIdx.x] + n;
    if (threadIdx.x % 3 == 0) {
        v = __all_sync(0xffffffff, v > 0); // expect: WL002
    }
    out[threadIdx.x] = v + extent(typename Cfg::Shape(n));
}

template <class Cfg>
__global__ void dependent_temporary_clean(int *out) {
    int n = size(typename Cfg::Shape{});
    int v = out[threadIdx.x] + n;
    v = __shfl_xor_sync(0xffffffff, v, 1);
    out[threadIdx.x] = v;
}

__device__ int braced_default(int v, Opts o = {}) {
    if (threadIdx.x >= 4) {
        return __any_sync(0xffffffff, v != 0); // expect: WL002
    }
    return v;
}

__device__ int braced_default_clean(int v, Opts o = {8}) {
    return __shfl_sync(0xffffffff, v, o.width);
}
