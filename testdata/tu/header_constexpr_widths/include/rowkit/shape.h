// A library's row shapes, given by constexpr functions as modern C++
// writes constants. A host-side header: no device code of its own.
#pragma once

namespace rowkit {
constexpr int row_lanes() { return 12; }
constexpr int tile_lanes() { return 16; }
} // namespace rowkit

constexpr int segment_lanes() { return 6; }

struct PackedRow {
    static constexpr int lanes() { return 10; }
};

struct WideRow {
    static constexpr int lanes() { return 32; }
};
