// Hardware case: WL004 unsynchronized-shared-memory (outcome on the GPU: see results.toml).
// A warp elects the lowest lane with a hit as the owner of a work item by
// having every such lane store its lane id into one shared slot, then
// syncing and reading it. Bug by the programming guide: several lanes write
// different values to one location with no barrier between them, and which
// write lands last is undefined; the code assumes the lowest lane's. The fix
// asks `__ballot_sync` and takes `__ffs(mask) - 1`.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void elect_owner(const int *, int *out)
{
    __shared__ int owner[4];
    unsigned warp = threadIdx.x / 32;
    unsigned lane = threadIdx.x % 32;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane == 0)
        owner[warp] = -1;
    __syncwarp();
    if (i % 3 == 0)
        owner[warp] = lane; // expect: WL004
    __syncwarp();
    out[i] = owner[warp];
}

// ---------------------------------------------------------------- host side
static const char *kCase = "shared_owner_last_writer";

static int hw_reps()
{
    const char *r = getenv("HW_REPS");
    return r ? atoi(r) : 50;
}

static int verdict(cudaError_t err, const char *wrong)
{
    if (err != cudaSuccess) {
        printf("RESULT %s crash %s\n", kCase, cudaGetErrorString(err));
        return 2;
    }
    if (wrong[0]) {
        printf("RESULT %s wrong %s\n", kCase, wrong);
        return 1;
    }
    printf("RESULT %s ok\n", kCase);
    return 0;
}

int main()
{
    const int blocks = 16, threads = 128, n = blocks * threads;
    int h_in[n], h_out[n], want[n];
    for (int i = 0; i < n; ++i)
        h_in[i] = i;
    for (int w = 0; w < n / 32; ++w) {
        int first = -1;
        for (int l = 0; l < 32; ++l)
            if (h_in[w * 32 + l] % 3 == 0 && first < 0)
                first = l;
        for (int l = 0; l < 32; ++l)
            want[w * 32 + l] = first;
    }
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof h_in);
    cudaMalloc(&d_out, sizeof h_out);
    cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_out, 0xff, sizeof h_out);
        elect_owner<<<16, 128>>>(d_in, d_out);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
        for (int i = 0; i < n && !wrong[0]; ++i)
            if (h_out[i] != want[i])
                snprintf(wrong, sizeof wrong, "thread %d got %d want %d (rep %d)", i, h_out[i], want[i], r);
    }
    return verdict(err, wrong);
}
