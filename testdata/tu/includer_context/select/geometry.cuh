// The selection library's launch geometry, in its own namespace.
#pragma once

namespace geometry {
constexpr unsigned kWarpLanes = 32;
constexpr unsigned kBlockThreads = 512;
}  // namespace geometry
