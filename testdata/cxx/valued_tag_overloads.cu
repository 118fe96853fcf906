// Overloads chosen by a tag whose type carries a value, as CUB-style
// code picks a variant: `Reduce(v, Int2Type<(LANES == 32)>())` runs the
// whole-warp overload for 32 lanes and the sub-warp one otherwise, and a
// recursive step ends at the overload that takes the last step. The
// overloads have the same number of parameters; only the tag's value
// tells them apart.
namespace lanes {
template <int N>
struct Int2Type {
    enum { VALUE = N };
};
template <bool B>
struct bool_constant {
    static constexpr bool value = B;
};
using true_type = bool_constant<true>;
using false_type = bool_constant<false>;
} // namespace lanes

template <int LANES>
struct GroupSum {
    // The whole warp: a butterfly over every lane.
    __device__ float Reduce(float v, lanes::Int2Type<true>) {
        for (int step = 16; step > 0; step /= 2) {
            v += __shfl_xor_sync(0xffffffffu, v, step);
        }
        return v;
    }
    // A group of 8 lanes: only its own lanes.
    __device__ float Reduce(float v, lanes::Int2Type<false>) {
        static_assert(LANES == 8, "groups of 8 lanes");
        unsigned lane = threadIdx.x % 32;
        unsigned mask = 0xffu << (lane / 8 * 8);
        for (int step = 4; step > 0; step /= 2) {
            v += __shfl_xor_sync(mask, v, step);
        }
        return v;
    }
    __device__ float Sum(float v) { return Reduce(v, lanes::Int2Type<(LANES == 32)>()); }
};

// Look-alike: the first group of each warp sums as a group of 8 lanes.
__global__ void first_group_sums(const float *in, float *out) {
    float v = in[threadIdx.x];
    if (threadIdx.x % 32 < 8) {
        v = GroupSum<8>().Sum(v);
    }
    out[threadIdx.x] = v;
}

// The same lanes run the whole warp's butterfly: lanes 8-31 never come.
__global__ void first_group_warp_sum(const float *in, float *out) {
    float v = in[threadIdx.x];
    if (threadIdx.x % 32 < 8) {
        v = GroupSum<32>().Sum(v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// Chosen by a `true_type`/`false_type` temporary written at the call.
struct Broadcast {
    __device__ float From(float v, lanes::false_type) { return v; }
    __device__ float From(float v, lanes::true_type) { return __shfl_sync(0xffffffffu, v, 0); }
};

// Look-alike: the tag says no shuffle for the lanes below 8.
__global__ void broadcast_skipped(const float *in, float *out) {
    float v = in[threadIdx.x];
    if (threadIdx.x % 32 < 8) {
        v = Broadcast().From(v, lanes::false_type{});
    }
    out[threadIdx.x] = v;
}

// The shuffle's overload, from the lanes below 8 only.
__global__ void broadcast_partial(const float *in, float *out) {
    float v = in[threadIdx.x];
    if (threadIdx.x % 32 < 8) {
        v = Broadcast().From(v, lanes::true_type{}); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// A recursive step: each step shuffles, the last one returns.
struct Butterfly {
    enum { STEPS = 5 };
    template <int STEP>
    __device__ float Step(float v, lanes::Int2Type<STEP>) {
        v += __shfl_xor_sync(0xffffffffu, v, 1 << STEP);
        return Step(v, lanes::Int2Type<STEP + 1>());
    }
    __device__ float Step(float v, lanes::Int2Type<STEPS>) { return v; }
    __device__ float Sum(float v) { return Step(v, lanes::Int2Type<0>()); }
};

// Look-alike: every lane runs every step.
__global__ void butterfly_all(const float *in, float *out) {
    out[threadIdx.x] = Butterfly().Sum(in[threadIdx.x]);
}
