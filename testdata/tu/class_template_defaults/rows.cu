// Kernels using the header's collectives with their default widths.
// strict: WL002, WL005
#include "warp_collectives.cuh"

// Only the lanes below `valid` sum: the default width is the whole warp,
// so lanes past `valid` are named in the mask and never arrive.
__global__ void sum_valid_prefix(const float *in, float *out, int valid) {
    __shared__ typename LaneReduce<float>::Scratch scratch;
    float v = in[threadIdx.x];
    if (threadIdx.x < valid) {
        v = LaneReduce<float>(scratch).Sum(v); // expect: WL002
    }
    out[threadIdx.x] = v;
}

// Look-alike: every lane sums, those past `valid` with a zero.
__global__ void sum_padded(const float *in, float *out, int valid) {
    __shared__ typename LaneReduce<float>::Scratch scratch;
    float v = threadIdx.x < valid ? in[threadIdx.x] : 0.0f;
    LaneReduce<float> reduce(scratch);
    out[threadIdx.x] = reduce.Sum(v);
}

// Look-alike: the width written as eight lanes; the mask then names
// lanes 0-7, exactly the lanes that enter.
__global__ void sum_first_octet(const float *in, float *out) {
    __shared__ typename LaneReduce<float, 8>::Scratch scratch;
    float v = in[threadIdx.x];
    if (threadIdx.x < 8) {
        v = LaneReduce<float, 8>(scratch).Sum(v);
    }
    out[threadIdx.x] = v;
}

// The default segment of six lanes.
__global__ void pair_sums_default(float *out) {
    SegmentSum<float> s;
    out[threadIdx.x] = s.total(out[threadIdx.x]); // expect: WL005
}

// Look-alike: eight lanes, written.
__global__ void pair_sums_eight(float *out) {
    SegmentSum<float, 8> s;
    out[threadIdx.x] = s.total(out[threadIdx.x]);
}

void launch_rows(const float *in, float *out, int valid) {
    sum_valid_prefix<<<4, 128>>>(in, out, valid);
    sum_padded<<<4, 128>>>(in, out, valid);
    sum_first_octet<<<4, 128>>>(in, out);
    pair_sums_default<<<4, 128>>>(out);
    pair_sums_eight<<<4, 128>>>(out);
}
