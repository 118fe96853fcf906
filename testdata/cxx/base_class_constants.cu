// A derived class's members see the static constants of its base classes
// (`using Base::kGroup;`, `Base::kGroup` or the bare name), computed in the
// base's order from the base's own template values and from the sizes of
// its type aliases (`using value_t = typename Vec::value_type;`). They are
// one value for the grid: a loop over them trips alike in every lane.
// strict: WL002, WL006

template <typename Vec, int kBlock>
class ScaleHelperBase {
 protected:
  using value_t = typename Vec::value_type;
  static constexpr int kBlockSize = kBlock;
  static constexpr int kElems = sizeof(Vec) / sizeof(value_t);
  static constexpr int kGroup = kBlockSize / kElems;
};

template <typename Vec>
class RowScaler : private ScaleHelperBase<Vec, 32> {
  using Base = ScaleHelperBase<Vec, 32>;
  using Base::kGroup;

 public:
  // The group reduction narrows the mask to lanes 0-15, which every lane
  // of the warp calls.
  __device__ float group_max(float v) {
    for (int offset = kGroup / 2; offset > 0; offset /= 2) {
      v = fmaxf(v, __shfl_down_sync(0x0000ffffu, v, offset)); // expect: WL006
    }
    return v;
  }

  // The same through the base's name.
  __device__ float group_max_scoped(float v) {
    for (int offset = Base::kGroup / 2; offset > 0; offset /= 2) {
      v = fmaxf(v, __shfl_down_sync(0x0000ffffu, v, offset)); // expect: WL006
    }
    return v;
  }

  // Look-alike: the whole warp's mask.
  __device__ float group_max_whole_warp(float v) {
    for (int offset = kGroup / 2; offset > 0; offset /= 2) {
      v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, offset));
    }
    return v;
  }
};
