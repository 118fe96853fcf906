// The grid's sync() (a cooperative launch) waits for every thread of the
// grid: within a block it is a barrier like __syncthreads().
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Only the threads with an element relax it and wait at the grid's
// barrier: the others never arrive.
__global__ void relax(float *v, float *next, int n) {
    cg::grid_group grid = cg::this_grid();
    for (int step = 0; step < 4; ++step) {
        int i = grid.thread_rank();
        if (i < n) {
            next[i] = 0.5f * (v[i] + v[(i + 1) % n]);
            grid.sync(); // expect: WL007
            v[i] = next[i];
        }
    }
}

// The look-alike: the branches close before the barriers, which every
// thread reaches (also through cg::sync).
__global__ void relax_ok(float *v, float *next, int n) {
    cg::grid_group grid = cg::this_grid();
    for (int step = 0; step < 4; ++step) {
        int i = grid.thread_rank();
        if (i < n) next[i] = 0.5f * (v[i] + v[(i + 1) % n]);
        grid.sync();
        if (i < n) v[i] = next[i];
        cg::sync(grid);
    }
}
