// The gemm_bf16 block tile as a device function, shared by gemm_bf16 and
// grouped_gemm_bf16: one workgroup computes the kTileM×kTileN tile of C at
// (m0, n0) from A (rows m0.., K columns) and B (rows n0.., K columns); the
// design is described in gemm_bf16.hip and spec.cpp.
//
// A template: the block tile, the waves and the swizzle are compile-time
// parameters (-DTL_TILE_M=256 ..., what a sweep's `params` set; the suite's
// build uses the defaults, 128×128×64 over 4 waves as 2×2).  Every choice
// keeps the copy, the MFMA atom (v_mfma_f32_16x16x32_bf16), the two LDS
// stages and the K order, so all give bit-identical C.  TILELAB_GEMM_TILE_256
// is the 256×256×64 tile over 8 waves (2×4, each 128×64 of C) of HipKittens'
// grid experiment (variant gemm_256); TILELAB_GEMM_PLAIN_LDS turns the
// swizzle off (variant gemm_plain_lds: conflicts turned into time).
#pragma once
#include "kernels/common/tilelab_hip.hpp"

#ifdef TILELAB_GEMM_TILE_256
#define TL_TILE_M 256
#define TL_TILE_N 256
#define TL_WAVES_M 2
#define TL_WAVES_N 4
#endif
#ifdef TILELAB_GEMM_PLAIN_LDS
#define TL_SWIZZLE 0
#endif
#include "kernels/common/tile_params.hpp"
#ifndef TL_SWIZZLE
#define TL_SWIZZLE 1
#endif

namespace gemm_bf16_tile {
constexpr int kTileM = TL_TILE_M, kTileN = TL_TILE_N, kTileK = 64;
constexpr int kWavesM = TL_WAVES_M, kWavesN = TL_WAVES_N;  // the waves' grid over the tile
constexpr int kThreads = 64 * kWavesM * kWavesN;
constexpr int kWaveM = kTileM / kWavesM, kWaveN = kTileN / kWavesN;  // C per wave
constexpr int kFrag = 16;                 // MFMA tile edge
constexpr int kFragsM = kWaveM / kFrag, kFragsN = kWaveN / kFrag;  // MFMA tiles per wave
constexpr int kMfmaK = 32;
constexpr int kChunk = 8;                 // bf16 per 16-byte chunk
constexpr int kChunksPerRow = kTileK / kChunk;
constexpr int kLoadsA = kTileM * kChunksPerRow / kThreads, kLoadsB = kTileN * kChunksPerRow / kThreads;  // per thread
constexpr int kElemsA = kTileM * kTileK, kElemsB = kTileN * kTileK;
// What a parameter choice must satisfy; a variant that breaks one does not
// compile, and the sweep records the message as its reason.
static_assert(kWavesM * kWavesN <= 16, "at most 16 waves (1024 threads) per workgroup");
static_assert(kWaveM % kFrag == 0 && kWaveN % kFrag == 0 && kFragsM > 0 && kFragsN > 0,
              "each wave's piece of C must be whole 16x16 MFMA tiles");
static_assert(kLoadsA > 0 && kLoadsB > 0 && kLoadsA * kThreads == kTileM * kChunksPerRow &&
                  kLoadsB * kThreads == kTileN * kChunksPerRow,
              "the threads must move the A and B tiles in whole 16-byte chunks");
static_assert(TL_SWIZZLE == 0 || TL_SWIZZLE == 1, "TL_SWIZZLE is 0 (plain) or 1 (Sw<3,3,3>)");

// Element offset of tile element (row, k) in an LDS tile.
__device__ inline int lds_offset(int row, int k) {
  if constexpr (TL_SWIZZLE) return tl::swizzle<3, 3, 3>(row * kTileK + k);
  return row * kTileK + k;
}

struct Staging {
  tl::bf16x8 a[kLoadsA], b[kLoadsB];
};

// Thread t moves chunk (t % 8) of rows t/8 + (threads/8)*i: 8 threads cover
// one row; A's and B's chunks interleaved while both tiles have rows left.
constexpr int kLoads = kLoadsA > kLoadsB ? kLoadsA : kLoadsB;

__device__ inline void load_tiles(Staging& s, const tl::bf16* A, const tl::bf16* B, int K, int m0, int n0, int k0,
                                  int t) {
#pragma unroll
  for (int i = 0; i < kLoads; ++i) {
    const int row = t / kChunksPerRow + i * (kThreads / kChunksPerRow);
    const int col = (t % kChunksPerRow) * kChunk;
    if (i < kLoadsA) s.a[i] = *reinterpret_cast<const tl::bf16x8*>(A + (long)(m0 + row) * K + k0 + col);
    if (i < kLoadsB) s.b[i] = *reinterpret_cast<const tl::bf16x8*>(B + (long)(n0 + row) * K + k0 + col);
  }
}

__device__ inline void store_tiles(const Staging& s, tl::bf16* lds_a, tl::bf16* lds_b, int t) {
#pragma unroll
  for (int i = 0; i < kLoads; ++i) {
    const int row = t / kChunksPerRow + i * (kThreads / kChunksPerRow);
    const int col = (t % kChunksPerRow) * kChunk;
    if (i < kLoadsA) *reinterpret_cast<tl::bf16x8*>(lds_a + lds_offset(row, col)) = s.a[i];
    if (i < kLoadsB) *reinterpret_cast<tl::bf16x8*>(lds_b + lds_offset(row, col)) = s.b[i];
  }
}
}  // namespace gemm_bf16_tile


namespace gemm_bf16_tile {
// C[m0.., n0..] = A[m0.., :]·B[n0.., :]ᵀ for one kTileM×kTileN tile; K % 64 == 0.
__device__ inline void gemm_tile(tl::bf16* __restrict__ C, const tl::bf16* __restrict__ A,
                                 const tl::bf16* __restrict__ B, int N, int K, int m0, int n0) {

  __shared__ __attribute__((aligned(16))) tl::bf16 lds_a[2][kElemsA];
  __shared__ __attribute__((aligned(16))) tl::bf16 lds_b[2][kElemsB];
  const int t = threadIdx.x;
  const int lane = t % tl::kWaveSize, wave = t / tl::kWaveSize;
  const int wm = (wave / kWavesN) * kWaveM, wn = (wave % kWavesN) * kWaveN;
  const int frag_row = lane % kFrag, frag_k = (lane / kFrag) * kChunk;

  tl::f32x4 acc[kFragsM][kFragsN];
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) acc[i][j] = tl::f32x4{0.f, 0.f, 0.f, 0.f};

  Staging staging;
  load_tiles(staging, A, B, K, m0, n0, 0, t);
  store_tiles(staging, lds_a[0], lds_b[0], t);
  __syncthreads();

  const int steps = K / kTileK;
  for (int step = 0; step < steps; ++step) {
    const int cur = step & 1;
    const bool more = step + 1 < steps;
    if (more) load_tiles(staging, A, B, K, m0, n0, (step + 1) * kTileK, t);
#pragma unroll
    for (int kk = 0; kk < kTileK; kk += kMfmaK) {
      tl::bf16x8 a[kFragsM], b[kFragsN];
#pragma unroll
      for (int i = 0; i < (kFragsM > kFragsN ? kFragsM : kFragsN); ++i) {  // A and B reads interleaved
        if (i < kFragsM)
          a[i] = *reinterpret_cast<const tl::bf16x8*>(lds_a[cur] + lds_offset(wm + i * kFrag + frag_row, kk + frag_k));
        if (i < kFragsN)
          b[i] = *reinterpret_cast<const tl::bf16x8*>(lds_b[cur] + lds_offset(wn + i * kFrag + frag_row, kk + frag_k));
      }
#pragma unroll
      for (int i = 0; i < kFragsM; ++i)
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) acc[i][j] = tl::mfma_f32_16x16x32_bf16(a[i], b[j], acc[i][j]);
    }
    if (more) store_tiles(staging, lds_a[cur ^ 1], lds_b[cur ^ 1], t);
    __syncthreads();
  }

  // D fragment: lane l holds rows 4*(l/16) .. +4 of column l%16.
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const int row = m0 + wm + i * kFrag + (lane / kFrag) * 4 + r;
        const int col = n0 + wn + j * kFrag + lane % kFrag;
        C[(long)row * N + col] = (tl::bf16)acc[i][j][r];
      }
}
}  // namespace gemm_bf16_tile
