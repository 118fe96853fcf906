// The build defines VOTE_WITH_SYNC for this file (compile_commands.json),
// so the `_sync` branch is the one compiled and analysed: a full-mask vote
// that only the lanes past the bound reach.
__global__ void vote_tail(const int *in, unsigned *out, int bound) {
    int lane = threadIdx.x % 32;
    unsigned held = 0;
    if (lane >= bound) {
#ifdef VOTE_WITH_SYNC
        held = __ballot_sync(0xffffffffu, in[threadIdx.x] > 0); // expect: WL002
#else
        held = __ballot(in[threadIdx.x] > 0);
#endif
    }
    out[threadIdx.x] = held;
}
