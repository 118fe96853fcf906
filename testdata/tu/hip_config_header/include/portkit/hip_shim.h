// The HIP side of a portable library: included only when the build targets
// AMD GPUs (PORTKIT_USE_HIP).
#pragma once
#include <hip/hip_runtime.h>
#define PORTKIT_WAVE 64
