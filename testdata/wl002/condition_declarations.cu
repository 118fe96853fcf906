// Conditions that declare what they test: the C++17 initializer
// (`if (int lane = threadIdx.x & 31; lane < 16)`) and a declaration
// condition (`if (int k = p[i])`). The declared value decides who enters.
// strict: WL002

// Lanes 0-15 enter; the full mask names all 32.
__global__ void initializer_selects_low_half(float *out) {
    float v = out[threadIdx.x];
    if (int lane = threadIdx.x & 31; lane < 16)
        v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
    out[threadIdx.x] = v;
}

// Look-alike: the initializer reads the block index, the same in every
// lane of a warp.
__global__ void initializer_selects_blocks(float *out) {
    float v = out[threadIdx.x];
    if (int tile = blockIdx.x & 3; tile == 0)
        v += __shfl_xor_sync(0xffffffffu, v, 1);
    out[threadIdx.x] = v;
}

// A per-thread load decides: the lanes whose flag is 0 skip the shuffle.
__global__ void declared_flag_selects(const int *flags, float *out) {
    float v = out[threadIdx.x];
    if (int flag = flags[threadIdx.x])
        v += __shfl_down_sync(0xffffffffu, v, flag & 15); // expect: WL002
    out[threadIdx.x] = v;
}

// Look-alike: the declared value is one load at the block's address.
__global__ void declared_block_flag(const int *flags, float *out) {
    float v = out[threadIdx.x];
    if (int flag = flags[blockIdx.x])
        v += __shfl_down_sync(0xffffffffu, v, 1);
    out[threadIdx.x] = v;
}

// A `switch` with an initializer: only the lanes whose quarter is 0 take
// the first case.
__global__ void switch_initializer_selects(float *out) {
    float v = out[threadIdx.x];
    switch (int quarter = (threadIdx.x & 31) / 8; quarter) {
    case 0:
        v += __shfl_xor_sync(0xffffffffu, v, 1); // expect: WL002
        break;
    default:
        break;
    }
    out[threadIdx.x] = v;
}

// Look-alike: the initializer reads the block index, so a whole block
// takes one case.
__global__ void switch_initializer_per_block(float *out) {
    float v = out[threadIdx.x];
    switch (int quarter = blockIdx.x & 3; quarter) {
    case 0:
        v += __shfl_xor_sync(0xffffffffu, v, 1);
        break;
    default:
        break;
    }
    out[threadIdx.x] = v;
}
