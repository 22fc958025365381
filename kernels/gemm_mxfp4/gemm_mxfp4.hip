// MXFP4 scaled GEMM: C = (A·sA)·(B·sB)ᵀ with A (M×K) and B (N×K) already
// quantized to FP4 E2M1, packed two per byte (element 2i in the low nibble;
// row-major, K/2 bytes per row), one E8M0 scale byte per 32 consecutive K
// values of each row (sA: M × K/32, sB: N × K/32); fp32 accumulation, bf16 C.
//
// v_mfma_scale_f32_16x16x128_f8f6f4 with both formats E2M1 (gfx950): per
// 16×16 tile and K step of 128, lane l (g = l/16) holds row l%16 with
// k = 32g..32g+31 — 16 bytes, one ds_read_b128 — and the scales of row l%16
// for K-block g (arch-facts.md, ISA §7.1.4).  FP4 MFMAs take 16 cycles, half
// the FP8 ones.
//
// Block tile 128×128×128 over 4 waves (2×2, 64×64 of C each).  A and B tiles
// are 128 rows × 64 bytes, double-buffered in LDS (32 KiB).  The copy moves
// 16-byte chunk t%4 of rows t/4 + 64i (i < 2) with ds_write_b128; the operand
// read takes chunk g of row l%16.  Unswizzled, the 64-byte row stride makes
// those reads conflict (32 conflict cycles per tile on gfx950); Sw<2,4,3>
// (chunk c of row r at c ^ ((r/2) % 4)) is conflict-free on both sides, as
// `tilelab swizzle --tile 128,64 --elem-bytes 1` finds.
// Spec: spec.cpp.  Shapes: M % 128 == 0, N % 128 == 0, K % 128 == 0.
#include "kernels/common/mx_gemm_tile.hpp"

#if defined(__gfx950__)
extern "C" __global__ __launch_bounds__(mx_gemm_tile::kThreads) void gemm_mxfp4(
    tl::bf16* __restrict__ C, const unsigned char* __restrict__ A, const unsigned char* __restrict__ scale_a,
    const unsigned char* __restrict__ B, const unsigned char* __restrict__ scale_b, int M, int N, int K TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  (void)M;  // the grid covers M: blockIdx.y < M / 128
  mx_gemm_tile::gemm</*bits*/ 4, /*format*/ 4, 2, 4, 3>(C, A, scale_a, B, scale_b, N, K);
}

// The same GEMM with the 32x32x64 MFMA atom (kernels/common/mx_gemm_tile.hpp,
// Atom<32>): each wave's 64x64 of C is 2x2 atoms, two MFMAs per K step of 128.
// Its operand read (one chunk of 32 consecutive 64-byte rows per half-wave)
// conflicts 2-way under Sw<2,4,3>; Sw<2,4,4> (chunk c of row r at
// c ^ ((r/4) % 4)) is conflict-free for it and the copy (`tilelab swizzle
// --tile 128,64 --read-tv '(32,2):(1,32)' '(1,16)'`, the rest as above).
extern "C" __global__ __launch_bounds__(mx_gemm_tile::kThreads) void gemm_mxfp4_32x32(
    tl::bf16* __restrict__ C, const unsigned char* __restrict__ A, const unsigned char* __restrict__ scale_a,
    const unsigned char* __restrict__ B, const unsigned char* __restrict__ scale_b, int M, int N, int K TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  (void)M;
  mx_gemm_tile::gemm</*bits*/ 4, /*format*/ 4, 2, 4, 4, /*atom*/ 32>(C, A, scale_a, B, scale_b, N, K);
}
#endif
