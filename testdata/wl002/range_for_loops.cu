// Range-based for loops are loops: their bodies run in the lanes that
// reach the loop, once per element. Every thread walks a range of the same
// extent (a local array, a fragment held by value), so the loop itself
// never splits a warp.
// strict: WL002, WL007

struct Fragment {
    float values[4];
};

// Only the lower half-warp rotates its fragment; the full mask names the
// upper half too.
__global__ void rotate_lower_half(float *out) {
    float acc[4] = {out[threadIdx.x], 1.0f, 2.0f, 3.0f};
    if ((threadIdx.x & 31) < 16) {
        for (float &x : acc) {
            x = __shfl_xor_sync(0xffffffff, x, 1); // expect: WL002
        }
    }
    out[threadIdx.x] = acc[0];
}

// Look-alike: every lane walks its own four elements and shuffles each.
__global__ void rotate_whole_warp(float *out) {
    float acc[4] = {out[threadIdx.x], 1.0f, 2.0f, 3.0f};
    float total = 0.0f;
    for (float x : acc) {
        total += __shfl_xor_sync(0xffffffff, x, 1);
    }
    out[threadIdx.x] = total;
}

// Look-alike: a barrier in a loop over a fragment passed by value, whose
// extent is the same in every thread.
__global__ void paced_fragment(Fragment frag, float *out) {
    float total = 0.0f;
    for (float x : frag.values) {
        total += x;
        __syncthreads();
    }
    out[threadIdx.x] = total;
}

// The same loop, entered only by the first 64 threads.
__global__ void paced_fragment_first_rows(Fragment frag, float *out) {
    float total = 0.0f;
    if (threadIdx.x < 64) {
        for (float x : frag.values) {
            total += x;
            __syncthreads(); // expect: WL007
        }
    }
    out[threadIdx.x] = total;
}

void launch_range_loops(Fragment frag, float *out) {
    rotate_lower_half<<<1, 128>>>(out);
    rotate_whole_warp<<<1, 128>>>(out);
    paced_fragment<<<1, 128>>>(frag, out);
    paced_fragment_first_rows<<<1, 128>>>(frag, out);
}
