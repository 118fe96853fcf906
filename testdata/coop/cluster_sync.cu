// A thread block cluster's sync() waits for every thread of the cluster's
// blocks: within a block it is a barrier like __syncthreads().
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Only the first half of each block publishes, and only it waits: the
// other threads never arrive.
__global__ void publish_half(int *out, const int *in) {
    __shared__ int staged[128];
    cg::cluster_group cluster = cg::this_cluster();
    if (threadIdx.x < 64) {
        staged[threadIdx.x] = in[cluster.thread_rank()];
        cluster.sync(); // expect: WL007
        out[cluster.thread_rank()] = staged[127 - threadIdx.x];
    }
}

// The look-alike: the branch closes before the barrier, which every
// thread of every block reaches (also through cg::sync).
__global__ void publish_all(int *out, const int *in) {
    __shared__ int staged[128];
    cg::cluster_group cluster = cg::this_cluster();
    staged[threadIdx.x] = threadIdx.x < 64 ? in[cluster.thread_rank()] : 0;
    cluster.sync();
    out[cluster.thread_rank()] = staged[127 - threadIdx.x];
    cg::sync(cluster);
}

void launch(int *out, const int *in) {
    publish_half<<<2, 128>>>(out, in);
    publish_all<<<2, 128>>>(out, in);
}
