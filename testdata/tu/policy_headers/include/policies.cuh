// strict: WL002, WL005
// Policy classes of a library: the lanes a step keeps and the width of a
// segment, as static members.
#pragma once

namespace lib {

struct QuarterWarp {
    static constexpr int kLanes = 8;
    static constexpr int kSegment = 24;
};

struct WholeWarp {
    static constexpr int kLanes = 32;
    static constexpr int kSegment = 32;
};

}  // namespace lib
