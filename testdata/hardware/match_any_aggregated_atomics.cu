// Hardware case: correct look-alike (no finding). Warp-aggregated atomics:
// the lanes that are together group themselves by key with
// __match_any_sync(__activemask(), key), elect the lowest lane of each group,
// which reserves slots for the whole group with one atomicAdd, and broadcast
// the base within the group. Correct by the programming guide: this is the
// opportunistic use of __activemask(); whichever lanes happen to be together,
// every lane still gets a unique slot and the counts are exact.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define NUM_KEYS 8

__device__ int reserve_slot(int *counters, int key)
{
    unsigned active = __activemask();
    unsigned group = __match_any_sync(active, key);
    int lane = threadIdx.x & 31;
    int leader = __ffs(group) - 1;
    int base = 0;
    if (lane == leader)
        base = atomicAdd(&counters[key], __popc(group));
    base = __shfl_sync(group, base, leader);
    return base + __popc(group & ((1u << lane) - 1));
}

__global__ void histogram_slots(const int *keys, int *counters, int *slots, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        slots[i] = reserve_slot(counters, keys[i]);
}

// ---------------------------------------------------------------- host side
static const char *kCase = "match_any_aggregated_atomics";

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
    const int cap = 8 * 128, n = 1000;
    int h_keys[cap], h_slots[cap], h_counts[NUM_KEYS], want[NUM_KEYS] = {0};
    for (int i = 0; i < cap; ++i) {
        h_keys[i] = ((i * 2654435761u) >> 7) % NUM_KEYS;
        if (i < n)
            ++want[h_keys[i]];
    }
    int *d_keys, *d_counters, *d_slots;
    cudaMalloc(&d_keys, sizeof h_keys);
    cudaMalloc(&d_counters, sizeof h_counts);
    cudaMalloc(&d_slots, sizeof h_slots);
    cudaMemcpy(d_keys, h_keys, sizeof h_keys, cudaMemcpyHostToDevice);

    char wrong[200] = "";
    cudaError_t err = cudaSuccess;
    for (int r = 0; r < hw_reps() && !wrong[0] && err == cudaSuccess; ++r) {
        cudaMemset(d_counters, 0, sizeof h_counts);
        cudaMemset(d_slots, 0xff, sizeof h_slots);
        histogram_slots<<<8, 128>>>(d_keys, d_counters, d_slots, 1000);
        err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaDeviceSynchronize();
        if (err != cudaSuccess) break;
        cudaMemcpy(h_counts, d_counters, sizeof h_counts, cudaMemcpyDeviceToHost);
        cudaMemcpy(h_slots, d_slots, sizeof h_slots, cudaMemcpyDeviceToHost);
        for (int k = 0; k < NUM_KEYS && !wrong[0]; ++k) {
            if (h_counts[k] != want[k]) {
                snprintf(wrong, sizeof wrong, "key %d count %d want %d (rep %d)", k, h_counts[k], want[k], r);
                break;
            }
            // The slots of one key must be exactly 0 .. count-1, each once.
            static char seen[cap];
            for (int s = 0; s < cap; ++s)
                seen[s] = 0;
            for (int i = 0; i < n && !wrong[0]; ++i) {
                if (h_keys[i] != k)
                    continue;
                int s = h_slots[i];
                if (s < 0 || s >= want[k] || seen[s]++)
                    snprintf(wrong, sizeof wrong, "key %d element %d got slot %d (rep %d)", k, i, s, r);
            }
        }
    }
    return verdict(err, wrong);
}
