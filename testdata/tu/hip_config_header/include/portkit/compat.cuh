// A portable library's switch between CUDA and HIP. The CUDA build (the one
// warplint checks) never includes the HIP shim, so this library's CUDA code
// is CUDA code, whatever the shim includes.
#pragma once

#if defined(PORTKIT_USE_HIP)
#include "portkit/hip_shim.h"
#else
#define PORTKIT_WAVE 32
#endif
