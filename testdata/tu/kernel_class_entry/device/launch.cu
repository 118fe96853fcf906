// strict: WL007, WL002
// The generic kernel that runs a kernel class as the block's work, and the
// host code launching it with 128-thread blocks.
#include "../kernel/row_scale.h"

template <typename Op>
__global__ void RunKernel(typename Op::Params params) {
    extern __shared__ int smem[];
    typename Op::SharedStorage *storage =
        reinterpret_cast<typename Op::SharedStorage *>(smem);
    Op op;
    op(params, *storage);
}

void scale_rows(kernel::RowScale<float>::Params p, kernel::RowScalePartial<float>::Params q,
                int blocks) {
    RunKernel<kernel::RowScale<float>><<<blocks, 128, 512>>>(p);
    RunKernel<kernel::RowScalePartial<float>><<<blocks, 128, 512>>>(q);
}
