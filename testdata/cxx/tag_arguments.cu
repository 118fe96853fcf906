// strict: WL002, WL005
// Tag dispatch: a helper template deduces its policy class from an
// argument (`fold(HalfLanes{}, v)`, a local `AllLanes all;`), with no
// template argument written. The members the helper reads are that
// class's; a run never picks them.
#define FULL_MASK 0xffffffffu

namespace tags {
struct HalfLanes {
    static constexpr int kLanes = 16;
};
struct AllLanes {
    static constexpr int kLanes = 32;
};
struct TwelveWide {
    static constexpr int kWidth = 12;
};
struct EightWide {
    static constexpr int kWidth = 8;
};
} // namespace tags

// Called with a HalfLanes temporary: lanes 16-31 skip a shuffle naming them.
template <class Policy>
__device__ float tag_fold(Policy, float v) {
    if ((threadIdx.x & 31) < Policy::kLanes) {
        v += __shfl_xor_sync(FULL_MASK, v, 1); // expect: WL002
    }
    return v;
}

// Look-alike: called with an AllLanes object, by reference.
template <class Policy>
__device__ float tag_fold_all(const Policy &policy, float v) {
    if ((threadIdx.x & 31) < Policy::kLanes) {
        v += __shfl_xor_sync(FULL_MASK, v, 1);
    }
    return v;
}

// The segment width is the tag's: 12 with TwelveWide, not a power of two
// (reported at the call, which states the width).
template <class Shape>
__device__ float tag_broadcast(float v, Shape) {
    return __shfl_sync(FULL_MASK, v, 0, Shape::kWidth);
}

// Look-alike: 8-lane segments.
template <class Shape>
__device__ float tag_broadcast_eight(float v, Shape) {
    return __shfl_sync(FULL_MASK, v, 0, Shape::kWidth);
}

__global__ void tag_half_kernel(float *out) {
    out[threadIdx.x] = tag_fold(tags::HalfLanes{}, out[threadIdx.x]);
}

__global__ void tag_all_kernel(float *out) {
    tags::AllLanes all;
    out[threadIdx.x] = tag_fold_all(all, out[threadIdx.x]);
}

__global__ void tag_width_kernel(float *out) {
    out[threadIdx.x] = tag_broadcast(out[threadIdx.x], tags::TwelveWide{}); // expect: WL005
}

__global__ void tag_eight_kernel(float *out) {
    out[threadIdx.x] = tag_broadcast_eight(out[threadIdx.x], tags::EightWide{});
}

void tag_launch(float *out) {
    tag_half_kernel<<<2, 64>>>(out);
    tag_all_kernel<<<2, 64>>>(out);
    tag_width_kernel<<<2, 64>>>(out);
    tag_eight_kernel<<<2, 64>>>(out);
}
