// WL008: a bump allocator for variable-sized records that asks which lanes
// are here with a full-mask ballot of a constant, then serves them one at a
// time. Pre-Volta idiom; since Volta the full masks promise all 32 lanes.

__device__ char *arena_take(char *arena, unsigned *top, unsigned bytes)
{
    const unsigned here = __ballot_sync(0xffffffff, 1); // expect: WL008
    const int me = threadIdx.x % 32;
    char *mine = nullptr;
    unsigned waiting = here;
    while (waiting != 0) {
        const int server = __ffs(waiting) - 1;
        unsigned size = __shfl_sync(0xffffffff, bytes, server); // expect: WL008
        unsigned offset = 0;
        if (me == server)
            offset = atomicAdd(top, size);
        offset = __shfl_sync(here, offset, server);
        if (me == server)
            mine = arena + offset;
        waiting &= ~(1u << server);
    }
    return mine;
}

// Only lanes with a record to store call it: the vote leaves the others out.
__global__ void store_records(char *arena, unsigned *top, const unsigned *sizes,
                              char **slots, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        slots[i] = arena_take(arena, top, sizes[i]); // expect: WL002
}

// Every lane calls it: correct here, but nothing stops other callers.
__global__ void store_all(char *arena, unsigned *top, const unsigned *sizes, char **slots)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    slots[i] = arena_take(arena, top, sizes[i]);
}

void launch(char *arena, unsigned *top, const unsigned *sizes, char **slots)
{
    store_records<<<2, 64>>>(arena, top, sizes, slots, 100);
    store_all<<<2, 64>>>(arena, top, sizes, slots);
}
