// Members of class templates defined outside the class (`template
// <typename T> __device__ T Reducer<T>::sum(T v) { … }`), as libraries
// split declaration and definition: each is the member it names, run with
// the fields its constructor sets.
// strict: WL002

namespace tags {
struct Wide {};
}

template <typename T>
struct HalfReducer {
    int lane;
    __device__ HalfReducer() : lane(threadIdx.x % 32) {}
    __device__ T sum(T v);
    __device__ T sum_all(T v);
};

// The lanes below 16 shuffle with a mask naming all 32.
template <typename T>
__device__ T HalfReducer<T>::sum(T v) {
    if (lane < 16)
        v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
    return v;
}

// Look-alike: every lane shuffles.
template <typename T>
__device__ T HalfReducer<T>::sum_all(T v) {
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__global__ void half_reducer_sums(float *out) {
    HalfReducer<float> r;
    out[threadIdx.x] = r.sum(out[threadIdx.x]) + r.sum_all(out[threadIdx.x]);
}

// The scope's template argument is itself scoped (`tags::Wide`).
template <typename Tag>
struct Broadcaster {
    __device__ int from_leader(int v);
};

template <typename Tag>
__device__ int Broadcaster<Tag>::from_leader(int v) {
    return __shfl_sync(0xffffffffu, v, 0);
}

__global__ void broadcast_in_odd_lanes(int *out) {
    Broadcaster<tags::Wide> b;
    int v = out[threadIdx.x];
    if (threadIdx.x & 1)
        v = b.from_leader(v); // expect: WL002
    out[threadIdx.x] = v;
}

// Look-alike: every lane calls it.
__global__ void broadcast_in_every_lane(int *out) {
    Broadcaster<tags::Wide> b;
    out[threadIdx.x] = b.from_leader(out[threadIdx.x]);
}
