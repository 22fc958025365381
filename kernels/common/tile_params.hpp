// The compile-time parameters the suite's GEMM templates share
// (kernels/gemm_bf16/gemm_tile.hpp, kernels/common/mx_gemm_tile.hpp), with
// the suite build's values as defaults: a 128×128 block tile over 4 waves as
// 2×2.  A variant sets them with -DTL_NAME=V (`tilelab compile --params`, a
// sweep's `params`); each template checks its own rules with static_asserts.
#pragma once

#ifndef TL_TILE_M
#define TL_TILE_M 128  // block tile rows (M)
#endif
#ifndef TL_TILE_N
#define TL_TILE_N 128  // block tile columns (N)
#endif
#ifndef TL_WAVES_M
#define TL_WAVES_M 2   // waves along M
#endif
#ifndef TL_WAVES_N
#define TL_WAVES_N 2   // waves along N
#endif
