// strict: WL002
#include <groupkit/collectives.cuh>

// Stream compaction: each kept element gets a slot. The group is formed
// before the test, so it names lanes that drop their element and never
// reach the helper's shuffle.
__global__ void compact_formed_early(const float *in, float *out, int *count) {
    cg::coalesced_group active = cg::coalesced_threads();
    float v = in[threadIdx.x];
    if (v != 0.0f) {
        out[groupkit::reserve_slots(active, count)] = v; // expect: WL002
    }
}

// Look-alike: the group is the lanes that keep their element.
__global__ void compact_formed_inside(const float *in, float *out, int *count) {
    float v = in[threadIdx.x];
    if (v != 0.0f) {
        cg::coalesced_group active = cg::coalesced_threads();
        out[groupkit::reserve_slots(active, count)] = v;
    }
}
