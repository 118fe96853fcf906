// The library's configuration header: it decides, from the toolkit, which
// warp API the other headers use. Nothing here is warp code itself.
#pragma once

#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 9
#define SHUFKIT_HAS_SYNC 1
#define SHUFKIT_FULL 0xffffffffu
#endif
