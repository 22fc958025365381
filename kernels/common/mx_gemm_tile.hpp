// The block tile both MX scaled GEMMs share (gemm_mxfp8, gemm_mxfp4): C =
// (A·sA)·(B·sB)ᵀ with element codes of kBits bits (8: one per byte, 4: two per
// byte, element 2i in the low nibble), one E8M0 scale byte per 32 K values of
// each row, fp32 accumulation in v_mfma_scale_f32_16x16x128_f8f6f4 (gfx950),
// bf16 C.  Block tile 128×128×128 over 4 waves (2×2, 64×64 of C each: 4×4
// MFMA tiles); A and B tiles of 128 rows × (128·kBits/8) bytes double-buffered
// in LDS, composed with Sw<SwB,SwM,SwS> in byte units.  The copy moves
// 16-byte chunks (ds_write_b128, 128-bit global loads for the next K step,
// overlapped with the MFMAs); lane l (g = l/16) reads its operand row l%16
// with ds_read_b128: k = 16g..+15 and 64+16g..+15 for FP8 (8 registers),
// k = 32g..+31 for FP4 (the low 4 registers); the scales of row l%16 for
// K-block g come from global memory per K step.  Each kernel's .hip file
// describes its variant; spec: kernels/common/mx_gemm_spec.
#pragma once
#include "kernels/common/tilelab_hip.hpp"

#if defined(__gfx950__)
namespace mx_gemm_tile {
constexpr int kThreads = 256;
constexpr int kTile = 128, kTileK = 128;
constexpr int kWave = 64, kFrag = 16;
constexpr int kChunk = 16;

typedef int i32x8 __attribute__((ext_vector_type(8)));

template <int kBits, int SwB, int SwM, int SwS>
struct Tile {
  static constexpr int kRowBytes = kTileK * kBits / 8;                       // 128 (FP8) or 64 (FP4)
  static constexpr int kChunksPerRow = kRowBytes / kChunk;
  static constexpr int kLoadsPerThread = kTile * kChunksPerRow / kThreads;  // 4 or 2
  static constexpr int kBytes = kTile * kRowBytes;

  __device__ static int lds_offset(int row, int byte) { return tl::swizzle<SwB, SwM, SwS>(row * kRowBytes + byte); }

  struct Staging {
    tl::u32x4 a[kLoadsPerThread], b[kLoadsPerThread];
  };

  // Thread t moves chunk t % kChunksPerRow of rows t / kChunksPerRow + (256 / kChunksPerRow)·i.
  __device__ static void load(Staging& s, const unsigned char* A, const unsigned char* B, int K, int m0, int n0,
                              int k0, int t) {
    const long row_bytes = (long)K * kBits / 8;
#pragma unroll
    for (int i = 0; i < kLoadsPerThread; ++i) {
      const int row = t / kChunksPerRow + i * (kThreads / kChunksPerRow);
      const int col = (t % kChunksPerRow) * kChunk;
      s.a[i] = *reinterpret_cast<const tl::u32x4*>(A + (m0 + row) * row_bytes + k0 * kBits / 8 + col);
      s.b[i] = *reinterpret_cast<const tl::u32x4*>(B + (n0 + row) * row_bytes + k0 * kBits / 8 + col);
    }
  }

  __device__ static void store(const Staging& s, unsigned char* lds_a, unsigned char* lds_b, int t) {
#pragma unroll
    for (int i = 0; i < kLoadsPerThread; ++i) {
      const int row = t / kChunksPerRow + i * (kThreads / kChunksPerRow);
      const int col = (t % kChunksPerRow) * kChunk;
      *reinterpret_cast<tl::u32x4*>(lds_a + lds_offset(row, col)) = s.a[i];
      *reinterpret_cast<tl::u32x4*>(lds_b + lds_offset(row, col)) = s.b[i];
    }
  }

  __device__ static i32x8 operand(const unsigned char* tile, int row, int g) {
    const tl::u32x4 lo = *reinterpret_cast<const tl::u32x4*>(tile + lds_offset(row, kChunk * g));
    if constexpr (kBits == 4) {
      return i32x8{(int)lo[0], (int)lo[1], (int)lo[2], (int)lo[3], 0, 0, 0, 0};
    } else {
      const tl::u32x4 hi = *reinterpret_cast<const tl::u32x4*>(tile + lds_offset(row, 64 + kChunk * g));
      return i32x8{(int)lo[0], (int)lo[1], (int)lo[2], (int)lo[3], (int)hi[0], (int)hi[1], (int)hi[2], (int)hi[3]};
    }
  }
};

// kFormat: the cbsz/blgp format code (0 E4M3, 4 E2M1).
template <int kBits, int kFormat, int SwB, int SwM, int SwS>
__device__ void gemm(tl::bf16* __restrict__ C, const unsigned char* __restrict__ A,
                     const unsigned char* __restrict__ scale_a, const unsigned char* __restrict__ B,
                     const unsigned char* __restrict__ scale_b, int N, int K) {
  using T = Tile<kBits, SwB, SwM, SwS>;
  using Staging = typename T::Staging;
  constexpr int kTileBytes = T::kBytes;

  __shared__ __attribute__((aligned(16))) unsigned char lds_a[2][kTileBytes];
  __shared__ __attribute__((aligned(16))) unsigned char lds_b[2][kTileBytes];
  const int t = threadIdx.x;
  const int lane = t % tl::kWaveSize, wave = t / tl::kWaveSize;
  const int m0 = blockIdx.y * kTile, n0 = blockIdx.x * kTile;
  const int wm = (wave / 2) * kWave, wn = (wave % 2) * kWave;
  const int frag_row = lane % kFrag, g = lane / kFrag;
  const int blocks = K / 32;

  tl::f32x4 acc[4][4];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[i][j] = tl::f32x4{0.f, 0.f, 0.f, 0.f};

  Staging staging;
  T::load(staging, A, B, K, m0, n0, 0, t);
  T::store(staging, lds_a[0], lds_b[0], t);
  __syncthreads();

  const int steps = K / kTileK;
  for (int step = 0; step < steps; ++step) {
    const int cur = step & 1;
    const bool more = step + 1 < steps;
    if (more) T::load(staging, A, B, K, m0, n0, (step + 1) * kTileK, t);
    int sa[4], sb[4];
    i32x8 a[4], b[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      sa[i] = scale_a[(long)(m0 + wm + i * kFrag + frag_row) * blocks + step * 4 + g];
      sb[i] = scale_b[(long)(n0 + wn + i * kFrag + frag_row) * blocks + step * 4 + g];
      a[i] = T::operand(lds_a[cur], wm + i * kFrag + frag_row, g);
      b[i] = T::operand(lds_b[cur], wn + i * kFrag + frag_row, g);
    }
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j)
        acc[i][j] = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a[i], b[j], acc[i][j], kFormat, kFormat, 0,
                                                                    sa[i], 0, sb[j]);
    if (more) T::store(staging, lds_a[cur ^ 1], lds_b[cur ^ 1], t);
    __syncthreads();
  }

#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const int row = m0 + wm + i * kFrag + g * 4 + r;
        const int col = n0 + wn + j * kFrag + frag_row;
        C[(long)row * N + col] = (tl::bf16)acc[i][j][r];
      }
}
}  // namespace mx_gemm_tile
#endif
