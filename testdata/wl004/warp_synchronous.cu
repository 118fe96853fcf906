// Warp-synchronous shared-memory reductions written for lockstep warps.
#define WARP 32

__global__ void volatile_tree(const float *in, float *out) {
    __shared__ float sdata[2 * WARP];
    int tid = threadIdx.x;
    sdata[tid] = in[tid];
    sdata[tid + WARP] = in[tid + WARP];
    __syncthreads();
    if (tid < 32) {
        volatile float *s = sdata;
        s[tid] += s[tid + 32];
        s[tid] += s[tid + 16]; // expect: WL004
        s[tid] += s[tid + 8];  // expect: WL004
        s[tid] += s[tid + 4];  // expect: WL004
        s[tid] += s[tid + 2];  // expect: WL004
        s[tid] += s[tid + 1];  // expect: WL004
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

__global__ void same_barrier_pair(const int *in, int *out) {
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t + 32] = 0;
    __syncwarp();
    for (int offset = 16; offset > 0; offset /= 2) {
        s[t] += s[t + offset]; // expect: WL004
        __syncwarp();
    }
    if (t == 0) out[0] = s[0];
}

// A row pointer into a 2-D tile: lane t writes row[t] and reads row[t ^ 1]
// in the same phase.
__global__ void neighbours(const float *in, float *out) {
    __shared__ float tile[4][32];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    float *row = tile[warp];
    row[lane] = in[threadIdx.x];
    float mine = row[lane] + row[lane ^ 1]; // expect: WL004
    out[threadIdx.x] = mine;
}

void launch(const float *a, float *b, const int *c, int *d) {
    volatile_tree<<<1, 32>>>(a, b);
    same_barrier_pair<<<1, 32>>>(c, d);
    neighbours<<<1, 128>>>(a, b);
}
