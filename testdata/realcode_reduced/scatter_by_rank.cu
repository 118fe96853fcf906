// Exchanges that scatter each lane's item to a slot computed from data the
// code does not show: ranks read from memory (a permutation, by the
// caller's contract) and a helper's linear thread index with no caller in
// view. No lane-to-slot collision follows from the code; the executor used
// to pick colliding ranks (or one index for every lane) and call the race
// confirmed. Such a race is speculative until the addresses come from the
// code: shown only with `--min-confidence all`. The last kernel's slots do
// collide by the code itself (two lanes per slot), and stays a finding.
__global__ void scatter_by_rank(const int *ranks, const float *in, float *out) {
    __shared__ float staged[128];
    int slot = ranks[blockIdx.x * 128 + threadIdx.x];
    staged[slot] = in[blockIdx.x * 128 + threadIdx.x];
    __syncthreads();
    out[blockIdx.x * 128 + threadIdx.x] = staged[threadIdx.x];
}

template <int ITEMS>
__device__ void blocked_to_striped(float (&items)[ITEMS], int linear_tid) {
    __shared__ float buf[ITEMS * 128];
    for (int i = 0; i < ITEMS; ++i)
        buf[ITEMS * linear_tid + i] = items[i];
    __syncthreads();
    for (int i = 0; i < ITEMS; ++i)
        items[i] = buf[i * 128 + linear_tid];
}

__global__ void pairs_share_a_slot(const float *in, float *out) {
    __shared__ float half[64];
    half[threadIdx.x / 2] = in[threadIdx.x]; // expect: WL004
    __syncwarp();
    out[threadIdx.x] = half[threadIdx.x / 2];
}
