// How many lanes of each warp a step's work covers.
#pragma once

namespace lib {
struct HalfLanes {
    static constexpr int kLanes = 16;
};
struct AllLanes {
    static constexpr int kLanes = 32;
};
} // namespace lib
