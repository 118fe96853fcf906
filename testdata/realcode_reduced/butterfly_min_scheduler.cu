// A warp-0 scheduler loop (from FlashInfer's generated sparse-MQA
// kernels). Each lane probes one earlier request; a full xor butterfly
// takes the minimum, so every lane holds the same probe_pos, and
// everything after it (request_begin, the parity test, the claim
// broadcast from lane 0) is the same for the whole warp: every lane
// reaches every full-mask shuffle. Clean. The look-alike in
// butterfly_partial_scheduler.cu skips one offset and is reported.
__global__ void __launch_bounds__(256) probe(unsigned *Requests, unsigned *Workspace, unsigned num_q_tokens, unsigned num_ctas) {
    const int tid = threadIdx.x;
    const unsigned warp = __shfl_sync(0xffffffff, threadIdx.x / 32, 0);
    const unsigned lane = (unsigned)tid & 31u;
    unsigned qidx = blockIdx.x;
    for (unsigned round = 0; round < num_q_tokens + 1; round++) {
        if (warp == 0) {
            for (unsigned cand = 0; cand < num_q_tokens + 1; cand++) {
                if (qidx >= num_q_tokens) break;
                unsigned request = Requests[qidx];
                unsigned probe_pos = 32;
                if (qidx > lane) {
                    if (Requests[qidx - 1 - lane] != request) probe_pos = lane;
                }
                unsigned other = __shfl_xor_sync(0xFFFFFFFF, probe_pos, 16);
                probe_pos = probe_pos < other ? probe_pos : other;
                other = __shfl_xor_sync(0xFFFFFFFF, probe_pos, 8);
                probe_pos = probe_pos < other ? probe_pos : other;
                other = __shfl_xor_sync(0xFFFFFFFF, probe_pos, 4);
                probe_pos = probe_pos < other ? probe_pos : other;
                other = __shfl_xor_sync(0xFFFFFFFF, probe_pos, 2);
                probe_pos = probe_pos < other ? probe_pos : other;
                other = __shfl_xor_sync(0xFFFFFFFF, probe_pos, 1);
                probe_pos = probe_pos < other ? probe_pos : other;
                unsigned m5 = qidx < 32u ? qidx : 32u;
                unsigned m6 = probe_pos < m5 ? probe_pos : m5;
                unsigned request_begin = qidx - m6;
                if (probe_pos == 32) {
                    for (unsigned prev = 0; prev < request_begin; prev++) {
                        if (Requests[request_begin - 1] != request) break;
                        request_begin -= 1;
                    }
                }
                if ((qidx - request_begin) % 2 != 0) {
                    unsigned claim = 0;
                    if (lane == 0) claim = atomicAdd(&Workspace[32], 1);
                    claim = __shfl_sync(0xFFFFFFFF, claim, 0);
                    qidx = num_ctas + claim;
                } else {
                    Workspace[qidx] = 1;
                    qidx += num_ctas;
                }
            }
        }
    }
}
