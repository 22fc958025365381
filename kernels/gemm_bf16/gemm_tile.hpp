// The gemm_bf16 block tile as a device function, shared by gemm_bf16 and
// grouped_gemm_bf16: one workgroup computes the 128×128 tile of C at
// (m0, n0) from A (rows m0.., K columns) and B (rows n0.., K columns); the
// design is described in gemm_bf16.hip and spec.cpp.  Compiled with
// TILELAB_GEMM_TILE_256 it is the 256×256×64 tile over 8 waves (2×4, each
// 128×64 of C) with the same copy, swizzle, MFMA and K order, so both give
// bit-identical C (the variant gemm_256, for the workgroup-order sweep).
#pragma once
#include "kernels/common/tilelab_hip.hpp"

namespace gemm_bf16_tile {
#ifndef TILELAB_GEMM_TILE_256
constexpr int kThreads = 256;
constexpr int kTileM = 128, kTileN = 128, kTileK = 64;
constexpr int kWavesN = 2;                // 4 waves as 2 x 2
constexpr int kWaveM = 64, kWaveN = 64;   // C per wave
#else  // the 256x256x64 variant of HipKittens' grid experiment (gfx950: 128 KiB of LDS)
constexpr int kThreads = 512;
constexpr int kTileM = 256, kTileN = 256, kTileK = 64;
constexpr int kWavesN = 4;                // 8 waves as 2 x 4
constexpr int kWaveM = 128, kWaveN = 64;  // C per wave
#endif
constexpr int kFrag = 16;                 // MFMA tile edge
constexpr int kFragsM = kWaveM / kFrag, kFragsN = kWaveN / kFrag;  // MFMA tiles per wave
constexpr int kMfmaK = 32;
constexpr int kChunk = 8;                 // bf16 per 16-byte chunk
constexpr int kChunksPerRow = kTileK / kChunk;
constexpr int kLoadsPerThread = kTileM * kChunksPerRow / kThreads;  // 4
constexpr int kTileElems = kTileM * kTileK;

// Element offset of tile element (row, k) in an LDS tile.
#ifndef TILELAB_GEMM_PLAIN_LDS
__device__ inline int lds_offset(int row, int k) { return tl::swizzle<3, 3, 3>(row * kTileK + k); }
#else  // the variant without the swizzle (notebook 06: conflicts turned into time)
__device__ inline int lds_offset(int row, int k) { return row * kTileK + k; }
#endif

struct Staging {
  tl::bf16x8 a[kLoadsPerThread], b[kLoadsPerThread];
};

// Thread t moves chunk (t % 8) of rows t/8 + 32*i: 8 threads cover one row.
__device__ inline void load_tiles(Staging& s, const tl::bf16* A, const tl::bf16* B, int K, int m0, int n0, int k0,
                                  int t) {
#pragma unroll
  for (int i = 0; i < kLoadsPerThread; ++i) {
    const int row = t / kChunksPerRow + i * (kThreads / kChunksPerRow);
    const int col = (t % kChunksPerRow) * kChunk;
    s.a[i] = *reinterpret_cast<const tl::bf16x8*>(A + (long)(m0 + row) * K + k0 + col);
    s.b[i] = *reinterpret_cast<const tl::bf16x8*>(B + (long)(n0 + row) * K + k0 + col);
  }
}

__device__ inline void store_tiles(const Staging& s, tl::bf16* lds_a, tl::bf16* lds_b, int t) {
#pragma unroll
  for (int i = 0; i < kLoadsPerThread; ++i) {
    const int row = t / kChunksPerRow + i * (kThreads / kChunksPerRow);
    const int col = (t % kChunksPerRow) * kChunk;
    *reinterpret_cast<tl::bf16x8*>(lds_a + lds_offset(row, col)) = s.a[i];
    *reinterpret_cast<tl::bf16x8*>(lds_b + lds_offset(row, col)) = s.b[i];
  }
}
}  // namespace gemm_bf16_tile


namespace gemm_bf16_tile {
// C[m0.., n0..] = A[m0.., :]·B[n0.., :]ᵀ for one kTileM×kTileN tile; K % 64 == 0.
__device__ inline void gemm_tile(tl::bf16* __restrict__ C, const tl::bf16* __restrict__ A,
                                 const tl::bf16* __restrict__ B, int N, int K, int m0, int n0) {

  __shared__ __attribute__((aligned(16))) tl::bf16 lds_a[2][kTileElems];
  __shared__ __attribute__((aligned(16))) tl::bf16 lds_b[2][kTileElems];
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
