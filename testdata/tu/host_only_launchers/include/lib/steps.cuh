// strict: WL002
// Kernel templates over a lane policy. No file of the library launches
// them: the host-only launcher files in src/ do, some through the runtime
// API (cudaLaunchKernelEx), some with <<<…>>>, and each names the policy.
#pragma once

// Launched with lib::HalfLanes by src/launch_half_ex.cu: lanes 16-31 skip
// a shuffle that names them.
template <class Lanes>
__global__ void lanes_fold_ex(const float *in, float *out) {
    int lane = threadIdx.x % 32;
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane < Lanes::kLanes) {
        for (int d = 8; d > 0; d /= 2) {
            v += __shfl_down_sync(0xffffffffu, v, d); // expect: WL002
        }
    }
    if (lane == 0) {
        out[blockIdx.x] = v;
    }
}

// Look-alike: launched with lib::AllLanes only (src/launch_all_ex.cu), so
// every lane passes the guard.
template <class Lanes>
__global__ void lanes_fold_all_ex(const float *in, float *out) {
    int lane = threadIdx.x % 32;
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane < Lanes::kLanes) {
        for (int d = 8; d > 0; d /= 2) {
            v += __shfl_down_sync(0xffffffffu, v, d);
        }
    }
    if (lane == 0) {
        out[blockIdx.x] = v;
    }
}

// The same two shapes, launched with <<<…>>> from a file that defines no
// device code of its own (src/launch_chevron.cu).
template <class Lanes>
__global__ void lanes_fold_chevron(const float *in, float *out) {
    int lane = threadIdx.x % 32;
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane < Lanes::kLanes) {
        v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

template <class Lanes>
__global__ void lanes_fold_all_chevron(const float *in, float *out) {
    int lane = threadIdx.x % 32;
    float v = in[blockIdx.x * blockDim.x + threadIdx.x];
    if (lane < Lanes::kLanes) {
        v += __shfl_xor_sync(0xffffffffu, v, 1);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
