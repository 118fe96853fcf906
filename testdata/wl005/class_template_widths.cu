// A class template whose shuffle width is one of its parameters: each
// instance the code names is checked where it is called.
// strict: WL005

template <int GROUP>
struct GroupSum {
    __device__ float total(float v) {
        for (int o = GROUP / 2; o > 0; o /= 2)
            v += __shfl_down_sync(0xffffffffu, v, o, GROUP);
        return v;
    }
    static __device__ float leader(float v) {
        return __shfl_sync(0xffffffffu, v, 0, GROUP);
    }
};

// Groups of six lanes: the width is not a power of two.
__global__ void rows_of_six(float *out) {
    GroupSum<6> g;
    out[threadIdx.x] = g.total(out[threadIdx.x]); // expect: WL005
}

// Groups of eight: fine.
__global__ void rows_of_eight(float *out) {
    GroupSum<8> g;
    out[threadIdx.x] = g.total(out[threadIdx.x]);
}

constexpr int kTriple = 3 * 4;

// Through a static member and a named constant: width 12.
__global__ void leaders_of_twelve(float *out) {
    out[threadIdx.x] = GroupSum<kTriple>::leader(out[threadIdx.x]); // expect: WL005
}

// Sixteen through the same constant's neighbour: fine.
constexpr int kSixteen = 16;
__global__ void leaders_of_sixteen(float *out) {
    out[threadIdx.x] = GroupSum<kSixteen>::leader(out[threadIdx.x]);
}
