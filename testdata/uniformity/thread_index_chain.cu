// strict: WL007
// Generated kernels name the thread index through long chains
// (`tid` → `t1` → … → `t10`, a slot, a row): the dataflow learns one link
// per pass, so a chain longer than its pass budget once made it give up
// and take every variable as lane-varying, and the block-uniform work
// loop below was reported. The loop bound is read at a block-uniform
// address (clean). Its look-alike bounds the loop by a value read at the
// end of the chain, a per-thread address (finding).

__global__ void __launch_bounds__(128) chained_names(const int *work, const float *in, float *out) {
    __shared__ float buf[128];
    const int tid = threadIdx.x;
    const int t1 = tid;
    const int t2 = t1;
    const int t3 = t2;
    const int t4 = t3;
    const int t5 = t4;
    const int t6 = t5;
    const int t7 = t6;
    const int t8 = t7;
    const int t9 = t8;
    const int t10 = t9;
    const int lane = t10 % 32;
    const int n = work[blockIdx.x];
    for (int i = 0; i < n; i++) {
        buf[t10] = in[i * 128 + t10];
        __syncthreads();
        out[i * 128 + lane] = buf[127 - t10];
        __syncthreads();
    }
}

__global__ void __launch_bounds__(128) chained_names_per_thread(const int *work, const float *in, float *out) {
    __shared__ float buf[128];
    const int tid = threadIdx.x;
    const int t1 = tid;
    const int t2 = t1;
    const int t3 = t2;
    const int t4 = t3;
    const int t5 = t4;
    const int t6 = t5;
    const int t7 = t6;
    const int t8 = t7;
    const int t9 = t8;
    const int t10 = t9;
    const int n = work[t10];
    for (int i = 0; i < n; i++) {
        buf[t10] = in[i * 128 + t10];
        __syncthreads(); // expect: WL007
        out[i * 128 + t10] = buf[127 - t10];
        __syncthreads(); // expect: WL007
    }
}

void launch(const int *work, const float *in, float *out) {
    chained_names<<<8, 128>>>(work, in, out);
    chained_names_per_thread<<<8, 128>>>(work, in, out);
}
