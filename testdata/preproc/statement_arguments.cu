// Macro calls whose arguments are statements. `PAR_OR_SEQ((A), (B))`
// runs one of two parenthesised statement arms (the analysed one is the
// first, as for an undecidable #if); `EACH_LANE(stmt; stmt)` wraps a
// statement list. Neither macro is defined in this file.

__global__ void arms_with_bug(int *out, int n) {
    int v = out[threadIdx.x];
    PAR_OR_SEQ(
        (int t = v * 2;
         if (threadIdx.x < n) {
             t = __ballot_sync(0xffffffff, t > 0); // expect: WL002
         }
         out[threadIdx.x] = t;),
        (out[threadIdx.x] = v;));
}

__global__ void arms_clean(int *out) {
    int v = out[threadIdx.x];
    PAR_OR_SEQ(
        (int t = __shfl_down_sync(0xffffffff, v, 1);
         out[threadIdx.x] = t;),
        (out[threadIdx.x] = v;));
}

__global__ void list_with_bug(int *out) {
    int v = out[threadIdx.x];
    EACH_LANE(v += 1; if (v > 3) { v = __all_sync(0xffffffff, v > 9); }); // expect: WL002
    out[threadIdx.x] = v;
}

__global__ void list_clean(int *out) {
    int v = out[threadIdx.x];
    EACH_LANE(v += 1; v = __shfl_sync(0xffffffff, v, 0););
    out[threadIdx.x] = v;
}
