// Grouped GEMM (the MoE case): for each group g, C_g = A_g·B_gᵀ with A_g of
// M_g × K rows, B_g of N × K, C_g of M_g × N; all groups share N and K, M_g
// differs.  One launch for all groups.  A and C are the groups' rows stacked
// (A: ΣM_g × K, C: ΣM_g × N); B holds the groups' matrices one after the
// other (G × N × K); row_offsets[g] (a device array of G + 1 ints, a prefix
// sum, row_offsets[0] = 0) is where group g's rows start.
//
// Tile -> group mapping: the grid is (N/128) × (ΣM_g/128) workgroups, one
// 128×128 tile of stacked C each; workgroup y covers stacked rows
// 128y .. 128y+127, which lie in one group because every M_g is a multiple of
// 128; the group is the last g with row_offsets[g] <= 128y, found by a scan
// of the (uniform, scalar-loaded) offsets.  Every tile then is gemm_bf16's
// block tile (gemm_tile.hpp): same LDS layout, swizzle and pipeline.
// Spec: spec.cpp.  Shapes: N % 128 == 0, K % 64 == 0, every M_g % 128 == 0.
#include "kernels/gemm_bf16/gemm_tile.hpp"

extern "C" __global__ __launch_bounds__(gemm_bf16_tile::kThreads) void grouped_gemm_bf16(
    tl::bf16* __restrict__ C, const tl::bf16* __restrict__ A, const tl::bf16* __restrict__ B,
    const int* __restrict__ row_offsets, int groups, int N, int K TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  const int m0 = blockIdx.y * gemm_bf16_tile::kTileM;
  int g = 0;
  while (g + 1 < groups && row_offsets[g + 1] <= m0) ++g;
  gemm_bf16_tile::gemm_tile(C, A, B + (long)g * N * K, N, K, m0, blockIdx.x * gemm_bf16_tile::kTileN);
}
