// Masks shared by the kernels of this directory.
#pragma once
#define LOWER_HALF_LANES 0x0000ffffu
constexpr int kLeader = 17;
