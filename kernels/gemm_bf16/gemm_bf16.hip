// C = A·Bᵀ: A is M×K, B is N×K (both row-major, bf16), C is M×N (row-major,
// bf16), fp32 accumulation with v_mfma_f32_16x16x32_bf16.
//
// Block tile 128×128×64 over 256 threads = 4 waves arranged 2×2; each wave
// owns a 64×64 piece of C = 4×4 MFMA tiles of 16×16 (64 fp32 accumulators
// per lane).  A and B tiles (128×64 bf16 = 16 KiB each) are double-buffered
// in LDS (64 KiB in all, so the same design fits gfx942's 64 KiB LDS).
//
// Per K step of 64: every thread loads 4 16-byte chunks of A and of B for the
// *next* step into registers (128-bit global loads), computes on the current
// LDS buffer (2 × 16 MFMAs per wave, fragments read with ds_read_b128), then
// writes the registers into the other buffer (ds_write_b128) and meets the
// others at one barrier: the buffer it writes was last read before the
// previous barrier, so one barrier per step is enough.
//
// LDS layout of each tile: row-major 128×64 composed with Sw<3,3,3> (16-byte
// chunk c of row r lands at chunk c ^ (r % 8)).  `tilelab swizzle` for this
// writer/reader pair (writer: 8 threads per 64-element row, 8 values each;
// reader: the MFMA A/B operand, lane l at row l%16, k = 8*(l/16)) finds it
// conflict-free on both gfx950 and gfx942 (its gfx950 first choice,
// Sw<2,4,3>, costs 128 cycles per tile read on gfx942); the unswizzled tile
// costs 192 (gfx950) / 384 (gfx942) conflict cycles per tile read.
//
// Workgroup order (the `group_m` and `xcd_chunk` arguments; the host passes
// 0, 0): group_m 0 keeps the grid's own order (workgroup (x, y) computes tile
// column x of tile row y, row-major, and the hardware deals linear ids to the
// 8 XCDs in turn).  G > 0 is HipKittens' Algorithm 1 (arXiv 2511.08083):
// first an XCD grouping gives C consecutive tile ids to each XCD in turn
// (linear id w on XCD x = w % 8 takes id (l / C) * 8C + x * C + l % C with
// l = w / 8; ids from the last whole multiple of 8C on keep their own), C =
// xcd_chunk, or n / 8 when it is 0 and the n workgroups divide by 8 (one
// contiguous eighth of the grid per XCD); then a walk in windows of G tile
// rows, row fast inside a window and column slow (Triton's GROUP_M order),
// so that the workgroups an XCD runs together share rows of A and columns of
// B in its L2.
// Spec: spec.cpp.
// Shapes: M % 128 == 0, N % 128 == 0, K % 64 == 0 (the gemm_256 variant: M, N % 256).
#include "kernels/gemm_bf16/gemm_tile.hpp"

extern "C" __global__ __launch_bounds__(gemm_bf16_tile::kThreads) void gemm_bf16(
    tl::bf16* __restrict__ C, const tl::bf16* __restrict__ A, const tl::bf16* __restrict__ B, int M, int N, int K,
    int group_m, int xcd_chunk TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  int tile_row = blockIdx.y, tile_col = blockIdx.x;
  if (group_m > 0) {
    const int cols = N / gemm_bf16_tile::kTileN, rows = M / gemm_bf16_tile::kTileM, n = cols * rows;  // the grid
    const int w = blockIdx.y * cols + blockIdx.x;
    constexpr int kXcds = 8;
    const int chunk = xcd_chunk > 0 ? xcd_chunk : (n % kXcds == 0 ? n / kXcds : 0);
    const int remapped = chunk > 0 ? n / (kXcds * chunk) * (kXcds * chunk) : 0;  // ids below it are regrouped
    const int local = w / kXcds;
    const int id = w < remapped ? local / chunk * (kXcds * chunk) + (w % kXcds) * chunk + local % chunk : w;
    const int per_group = group_m * cols;
    const int first_row = (id / per_group) * group_m;
    const int group_rows = rows - first_row < group_m ? rows - first_row : group_m;
    tile_row = first_row + (id % per_group) % group_rows;
    tile_col = (id % per_group) / group_rows;
  }
  gemm_bf16_tile::gemm_tile(C, A, B, N, K, tile_row * gemm_bf16_tile::kTileM, tile_col * gemm_bf16_tile::kTileN);
}
