// A width and a mask computed from a constant of a template's type
// argument: the instantiation's, unknown here. The file's other class
// has a member of the same name (an index, 0); read as that, the shuffle
// would have width 0 and mask 0, and both would look like bugs.
// strict: WL005

struct Slot3 {
  static int const kLanes = 0;
  static int const kStride = 1;
};

template <typename Op>
struct GroupBroadcast {
  using Group = typename Op::Group;

  __device__ float from_leader(float v) {
    unsigned mask = (1u << Group::kLanes) - 1u;
    return __shfl_sync(mask, v, 0, Group::kLanes);
  }
};
