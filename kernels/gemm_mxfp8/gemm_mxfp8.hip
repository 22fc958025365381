// MXFP8 scaled GEMM: C = (A·sA)·(B·sB)ᵀ with A (M×K) and B (N×K) already
// quantized to FP8 E4M3 (one byte per element, row-major) and one E8M0 scale
// byte per 32 consecutive K values of each row (sA: M × K/32, sB: N × K/32,
// row-major); fp32 accumulation, bf16 C (M×N, row-major).
//
// v_mfma_scale_f32_16x16x128_f8f6f4 (gfx950): per 16×16 tile and K step of
// 128, lane l (g = l/16) holds A row l%16 with k = 16g..16g+15 in v0-3 and
// k = 64+16g..+15 in v4-7 (B the same for column l%16), and the scales of
// row/column l%16 for K-block g (arch-facts.md, ISA §7.1.4).
//
// Block tile 128×128×128 over 4 waves (2×2, 64×64 of C each: 4×4 MFMA
// tiles).  A and B tiles are 128 rows × 128 bytes, double-buffered in LDS
// (64 KiB) — byte for byte gemm_bf16's tiles, with the same access pattern:
// the copy moves 16-byte chunk t%8 of rows t/8 + 32i with ds_write_b128, the
// operand read takes chunks g and 4+g of row l%16 with ds_read_b128.  So the
// same swizzle in byte units, Sw<3,4,3> (chunk c of row r at c ^ (r%8)), is
// conflict-free (tilelab check).  The scales (1/32 of the operand bytes) are
// read from global memory per K step, one byte per lane per MFMA row/column.
// Spec: spec.cpp.  Shapes: M % 128 == 0, N % 128 == 0, K % 128 == 0.
#include "kernels/common/mx_gemm_tile.hpp"

#if defined(__gfx950__)
extern "C" __global__ __launch_bounds__(mx_gemm_tile::kThreads) void gemm_mxfp8(
    tl::bf16* __restrict__ C, const unsigned char* __restrict__ A, const unsigned char* __restrict__ scale_a,
    const unsigned char* __restrict__ B, const unsigned char* __restrict__ scale_b, int M, int N, int K TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  (void)M;  // the grid covers M: blockIdx.y < M / 128
  mx_gemm_tile::gemm</*bits*/ 8, /*format*/ 0, 3, 4, 3>(C, A, scale_a, B, scale_b, N, K);
}

// The same GEMM with the 32x32x64 MFMA atom (kernels/common/mx_gemm_tile.hpp,
// Atom<32>): each wave's 64x64 of C is 2x2 atoms, two MFMAs per K step of 128.
// Lanes 0-31 read one chunk of 32 consecutive rows, which Sw<3,4,3> leaves
// 2-way conflicting (rows r and r+8 on the same banks); Sw<3,4,4> (chunk c of
// row r at c ^ ((r/2) % 8)) is conflict-free for that read and the copy
// (`tilelab swizzle --arch gfx950 --tile 128,128 --elem-bytes 1 --write-tv
// '(32,8):(8,1)' '(1,16)' --write-inst ds_write_b128 --read-tv '(32,2):(1,32)'
// '(1,16)' --read-inst ds_read_b128`).
extern "C" __global__ __launch_bounds__(mx_gemm_tile::kThreads) void gemm_mxfp8_32x32(
    tl::bf16* __restrict__ C, const unsigned char* __restrict__ A, const unsigned char* __restrict__ scale_a,
    const unsigned char* __restrict__ B, const unsigned char* __restrict__ scale_b, int M, int N, int K TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  (void)M;
  mx_gemm_tile::gemm</*bits*/ 8, /*format*/ 0, 3, 4, 4, /*atom*/ 32>(C, A, scale_a, B, scale_b, N, K);
}
#endif
