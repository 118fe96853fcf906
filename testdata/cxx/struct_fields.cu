// Shared arrays of structs: each field of each element is its own location.
struct Body {
    float pos;
    float vel;
};

// A lane writes its own element's position, then reads its neighbour's
// with nothing ordering the two.
__global__ void neighbour_position_race(const float *in, float *out) {
    __shared__ Body bodies[64];
    bodies[threadIdx.x].pos = in[threadIdx.x];
    out[threadIdx.x] = bodies[threadIdx.x ^ 1].pos; // expect: WL004
}

// The same exchange with __syncwarp() between the phases: clean.
__global__ void neighbour_position_synced(const float *in, float *out) {
    __shared__ Body bodies[64];
    bodies[threadIdx.x].pos = in[threadIdx.x];
    __syncwarp();
    out[threadIdx.x] = bodies[threadIdx.x ^ 1].pos;
}

// Writing one field and reading another field of the neighbour never
// touches the same location: clean.
__global__ void neighbour_other_field(const float *in, float *out) {
    __shared__ Body bodies[64];
    bodies[threadIdx.x].pos = in[threadIdx.x];
    out[threadIdx.x] = bodies[threadIdx.x ^ 1].vel;
}
