// A host-only launcher with <<<…>>>.
#include <lib/lanes.cuh>
#include <lib/steps.cuh>

void launch_chevron_folds(const float *in, float *out, int blocks) {
    lanes_fold_chevron<lib::HalfLanes><<<blocks, 64>>>(in, out);
    lanes_fold_all_chevron<lib::AllLanes><<<blocks, 64>>>(in, out);
}
