// A loop whose counter starts at a lane's offset and whose bound carries
// the same offset: `t - tid` is the same in every thread at each test, so
// every thread runs the same number of iterations and meets the barriers
// inside (ggml's recurrent kernels walk tokens this way: 6 false WL007
// findings on held-out llama.cpp). The look-alikes leave the offset out
// of the bound, or move the counter inside the body, and do split the
// block.
// strict: WL007

__global__ void tokens_with_lane_bound(const float *in, float *out, int tokens, int channels) {
    __shared__ float stage[256];
    const int tid = threadIdx.x;
    const int first = blockIdx.x * tokens * channels;
    for (int t = first + tid; t < first + tokens * channels + tid; t += channels) {
        __syncthreads();
        stage[tid] = in[t];
        __syncthreads();
        out[t] = stage[(tid + 1) % 256];
    }
}

// The bound without the offset: threads whose offset passes it stop an
// iteration early and skip the barriers the others wait at.
__global__ void tokens_with_block_bound(const float *in, float *out, int tokens, int channels) {
    __shared__ float stage[256];
    const int tid = threadIdx.x;
    const int first = blockIdx.x * tokens * channels;
    for (int t = first + tid; t < first + tokens * channels; t += channels) {
        __syncthreads(); // expect: WL007
        stage[tid] = in[t];
        __syncthreads(); // expect: WL007
        out[t] = stage[(tid + 1) % 256];
    }
}

// The counter also moves inside the body, by data: threads fall out of
// step.
__global__ void tokens_skipping(const float *in, float *out, int tokens, int channels) {
    __shared__ float stage[256];
    const int tid = threadIdx.x;
    const int first = blockIdx.x * tokens * channels;
    for (int t = first + tid; t < first + tokens * channels + tid; t += channels) {
        __syncthreads(); // expect: WL007
        stage[tid] = in[t];
        if (stage[tid] < 0.0f) t += channels;
    }
}

void launch_tokens(const float *in, float *out, int blocks, int tokens, int channels) {
    tokens_with_lane_bound<<<blocks, 256>>>(in, out, tokens, channels);
    tokens_with_block_bound<<<blocks, 256>>>(in, out, tokens, channels);
    tokens_skipping<<<blocks, 256>>>(in, out, tokens, channels);
}
