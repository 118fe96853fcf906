// A HIP library's configuration header: every other header of the library
// includes it, and it brings in HIP's runtime unless the build says not to.
// The library's own headers never name a HIP header themselves.
#pragma once

#ifndef WAVEKIT_SKIP_RUNTIME_HEADERS
#include <hip/hip_runtime.h>
#endif

#define WAVEKIT_DEVICE inline __device__
