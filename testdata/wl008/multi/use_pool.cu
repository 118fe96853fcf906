// The user half of the pair: calls the pool from divergent code (only lanes
// with work); the pool's full-mask vote is seen through the include.
#include "slot_pool.cuh"

__global__ void assign_slots(int *next_free, int *slot_of, const int *work, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && work[i] != 0)
        slot_of[i] = pool_slot(next_free); // expect: WL002
}

void launch(int *next_free, int *slot_of, const int *work)
{
    assign_slots<<<2, 128>>>(next_free, slot_of, work, 200);
}
