// Shuffle offsets read from a local table (`int offsets[] = {…}`): the
// table's elements are the values the code states, so the lanes each
// offset reaches are known.
// strict: WL006

// The lower half-warp sums with offsets up to 16: lane 0 reads lane 16,
// outside the half-warp mask.
__global__ void half_sum_wide_table(int *out) {
    int v = out[threadIdx.x];
    const int offsets[5] = {16, 8, 4, 2, 1};
    if ((threadIdx.x & 31) < 16) {
        for (int k = 0; k < 5; ++k) {
            v += __shfl_xor_sync(0x0000ffffu, v, offsets[k]); // expect: WL006
        }
    }
    out[threadIdx.x] = v;
}

// Look-alike: the table stays within the half-warp.
__global__ void half_sum_narrow_table(int *out) {
    int v = out[threadIdx.x];
    const int offsets[4] = {8, 4, 2, 1};
    if ((threadIdx.x & 31) < 16) {
        for (int k = 0; k < 4; ++k) {
            v += __shfl_xor_sync(0x0000ffffu, v, offsets[k]);
        }
    }
    out[threadIdx.x] = v;
}

void launch_offset_tables(int *out) {
    half_sum_wide_table<<<1, 64>>>(out);
    half_sum_narrow_table<<<1, 64>>>(out);
}
