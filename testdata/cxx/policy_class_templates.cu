// Class templates over a policy class, as CUB writes its agents and block
// primitives (`template <class Policy> struct Agent`): a member reads
// `Policy::kLanes` of the class the instance names, in an object the
// kernel declares (`Agent<Policy> a; a.run(v)`) or through a static call
// (`Agent<Policy>::run(v)`).
// strict: WL002

struct QuarterLanes {
    static constexpr int kLanes = 8;
};
struct AllLanes {
    static constexpr int kLanes = 32;
};

template <class Policy>
struct LaneSwapAgent {
    __device__ float run(float v) {
        if ((threadIdx.x & 31) < Policy::kLanes) {
            v = __shfl_xor_sync(0xffffffff, v, 1); // expect: WL002
        }
        return v;
    }
};

template <class Policy>
struct LaneSwapStatic {
    static __device__ float run(float v) {
        if ((threadIdx.x & 31) < Policy::kLanes) {
            v = __shfl_xor_sync(0xffffffff, v, 2); // expect: WL002
        }
        return v;
    }
};

// Lanes 8-31 skip the swap whose mask names them.
__global__ void quarter_agent(float *out) {
    LaneSwapAgent<QuarterLanes> agent;
    out[threadIdx.x] = agent.run(out[threadIdx.x]);
}

__global__ void quarter_static(float *out) {
    out[threadIdx.x] = LaneSwapStatic<QuarterLanes>::run(out[threadIdx.x]);
}

// Look-alikes: the same classes, instantiated only with the policy whose
// guard the whole warp passes.
template <class Policy>
struct WholeSwapAgent {
    __device__ float run(float v) {
        if ((threadIdx.x & 31) < Policy::kLanes) {
            v = __shfl_xor_sync(0xffffffff, v, 1);
        }
        return v;
    }
};

template <class Policy>
struct WholeSwapStatic {
    static __device__ float run(float v) {
        if ((threadIdx.x & 31) < Policy::kLanes) {
            v = __shfl_xor_sync(0xffffffff, v, 2);
        }
        return v;
    }
};

__global__ void all_lanes_agent(float *out) {
    WholeSwapAgent<AllLanes> agent;
    out[threadIdx.x] = agent.run(out[threadIdx.x]);
}

__global__ void all_lanes_static(float *out) {
    out[threadIdx.x] = WholeSwapStatic<AllLanes>::run(out[threadIdx.x]);
}

void launch_lane_swaps(float *out) {
    quarter_agent<<<1, 64>>>(out);
    quarter_static<<<1, 64>>>(out);
    all_lanes_agent<<<1, 64>>>(out);
    all_lanes_static<<<1, 64>>>(out);
}
