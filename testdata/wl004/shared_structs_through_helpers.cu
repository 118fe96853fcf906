// A helper given a `__shared__` array of structs: each lane's field is a
// location of its own, and two lanes touching the same field of the same
// element with no barrier between them race.

struct Pair {
    float lo;
    float hi;
};

// Lane t adds its partner's `lo` while the partner rewrites it.
__device__ void add_partner_lo(Pair *s, int t) {
    s[t].lo += s[t ^ 1].lo; // expect: WL004
}

// Lane t writes its own `lo` and reads its partner's `hi`: different
// fields, no lane writes what another reads. Clean.
__device__ void take_partner_hi(Pair *s, int t) {
    s[t].lo = s[t ^ 1].hi;
}

// The racy exchange split into phases: clean.
__device__ void add_partner_lo_phased(Pair *s, int t) {
    float other = s[t ^ 1].lo;
    __syncwarp();
    s[t].lo += other;
    __syncwarp();
}

__global__ void pair_exchanges(float *out) {
    __shared__ Pair racy[32];
    __shared__ Pair split[32];
    __shared__ Pair phased[32];
    int t = threadIdx.x % 32;
    racy[t].lo = out[threadIdx.x];
    split[t].lo = out[threadIdx.x];
    split[t].hi = 2.f * out[threadIdx.x];
    phased[t].lo = out[threadIdx.x];
    __syncwarp();
    add_partner_lo(racy, t);
    take_partner_hi(split, t);
    add_partner_lo_phased(phased, t);
    __syncwarp();
    out[threadIdx.x] = racy[t].lo + split[t].lo + phased[t].lo;
}
