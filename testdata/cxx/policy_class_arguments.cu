// Templates parameterised by a policy class (`template <class Policy>`),
// CUB's and CUTLASS's usual shape: `Policy::kActiveLanes` is the member of
// the class the launch or call names, not a value a run may pick. Each
// instance is checked with its policy's constants; a template whose every
// call names an instance runs only as those instances.
// strict: WL002, WL005

struct HalfWarpPolicy {
    static constexpr int kActiveLanes = 16;
};
struct FullWarpPolicy {
    static constexpr int kActiveLanes = 32;
};
struct TwelveWide {
    static constexpr int kWidth = 12;
};
struct SixteenWide {
    static constexpr int kWidth = 16;
};

// Launched with the half-warp policy: lanes 16-31 skip a shuffle that
// names them.
template <class Policy>
__global__ void policy_exchange(float *out) {
    float v = out[threadIdx.x];
    if ((threadIdx.x & 31) < Policy::kActiveLanes) {
        v += __shfl_xor_sync(0xffffffff, v, 1); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// Look-alike: launched only with the full-warp policy, every lane passes
// the guard.
template <class Policy>
__global__ void policy_exchange_all(float *out) {
    float v = out[threadIdx.x];
    if ((threadIdx.x & 31) < Policy::kActiveLanes) {
        v += __shfl_xor_sync(0xffffffff, v, 1);
    }
    out[threadIdx.x] = v;
}

// A helper whose shuffle width is its shape's member.
template <class Shape>
__device__ float segment_total(float v) {
    for (int o = 1; o < Shape::kWidth; o *= 2) {
        v += __shfl_xor_sync(0xffffffff, v, o, Shape::kWidth);
    }
    return v;
}

__global__ void twelve_wide_totals(float *out) {
    out[threadIdx.x] = segment_total<TwelveWide>(out[threadIdx.x]); // expect: WL005
}

// Look-alike: a power-of-two width.
__global__ void sixteen_wide_totals(float *out) {
    out[threadIdx.x] = segment_total<SixteenWide>(out[threadIdx.x]);
}

// A non-type value that only guards (never reaches a call's arguments):
// each call's value still decides the guard.
template <int ACTIVE>
__device__ float guarded_swap(float v) {
    if ((threadIdx.x & 31) < ACTIVE) {
        v = __shfl_xor_sync(0xffffffff, v, 1); // expect: WL002
    }
    return v;
}

__global__ void eight_lane_swap(float *out) {
    out[threadIdx.x] = guarded_swap<8>(out[threadIdx.x]);
}

// Look-alike: the whole warp passes the guard.
__global__ void whole_warp_swap(float *out) {
    out[threadIdx.x] = guarded_swap<32>(out[threadIdx.x]);
}

// Launched through a host launcher template that forwards its own policy
// (`run_forwarded<HalfWarpPolicy>`): the policy is the one the launcher is
// called with.
template <class Policy>
__global__ void forwarded_exchange(float *out) {
    float v = out[threadIdx.x];
    if ((threadIdx.x & 31) < Policy::kActiveLanes) {
        v += __shfl_xor_sync(0xffffffff, v, 2); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// Look-alike: forwarded the full-warp policy only.
template <class Policy>
__global__ void forwarded_exchange_all(float *out) {
    float v = out[threadIdx.x];
    if ((threadIdx.x & 31) < Policy::kActiveLanes) {
        v += __shfl_xor_sync(0xffffffff, v, 2);
    }
    out[threadIdx.x] = v;
}

template <class Policy>
void run_forwarded(float *out) {
    forwarded_exchange<Policy><<<1, 64>>>(out);
}

template <class Policy>
void run_forwarded_all(float *out) {
    forwarded_exchange_all<Policy><<<1, 64>>>(out);
}

void launch_policies(float *out) {
    run_forwarded<HalfWarpPolicy>(out);
    run_forwarded_all<FullWarpPolicy>(out);
    policy_exchange<HalfWarpPolicy><<<1, 64>>>(out);
    policy_exchange_all<FullWarpPolicy><<<1, 64>>>(out);
    twelve_wide_totals<<<1, 32>>>(out);
    sixteen_wide_totals<<<1, 32>>>(out);
    eight_lane_swap<<<1, 32>>>(out);
    whole_warp_swap<<<1, 32>>>(out);
}
