// The block tile both MX scaled GEMMs share (gemm_mxfp8, gemm_mxfp4): C =
// (A·sA)·(B·sB)ᵀ with element codes of kBits bits (8: one per byte, 4: two per
// byte, element 2i in the low nibble), one E8M0 scale byte per 32 K values of
// each row, fp32 accumulation in v_mfma_scale_f32_16x16x128_f8f6f4 (gfx950),
// bf16 C.  Block tile 128×128×128 over 4 waves (2×2, 64×64 of C each: 4×4
// MFMA tiles of 16×16, or 2×2 of 32×32 with the 32x32x64 atom); A and B
// tiles of 128 rows × (128·kBits/8) bytes double-buffered in LDS, composed
// with Sw<SwB,SwM,SwS> in byte units.  The copy moves 16-byte chunks
// (ds_write_b128, 128-bit global loads for the next K step, overlapped with
// the MFMAs); each lane reads its operand row with ds_read_b128 (Atom<R>
// says which chunks) and its scales from global memory per K step.  Each kernel's .hip file
// describes its variant; spec: kernels/common/mx_gemm_spec.
//
// A template like gemm_bf16's (kernels/gemm_bf16/gemm_tile.hpp): the block
// tile and the waves are compile-time parameters, -DTL_TILE_M, TL_TILE_N,
// TL_WAVES_M, TL_WAVES_N (a sweep's `params`; the suite's build uses the
// defaults above).  Every choice keeps the copy, the atoms, the swizzles and
// the K order, so all give bit-identical C.
#pragma once
#include "kernels/common/tilelab_hip.hpp"

#include "kernels/common/tile_params.hpp"

#if defined(__gfx950__)
namespace mx_gemm_tile {
constexpr int kTileM = TL_TILE_M, kTileN = TL_TILE_N, kTileK = 128;
constexpr int kWavesM = TL_WAVES_M, kWavesN = TL_WAVES_N;  // the waves' grid over the tile
constexpr int kThreads = 64 * kWavesM * kWavesN;
constexpr int kWaveM = kTileM / kWavesM, kWaveN = kTileN / kWavesN;  // C per wave
constexpr int kChunk = 16;
static_assert(kWavesM * kWavesN <= 16, "at most 16 waves (1024 threads) per workgroup");
static_assert(kWaveM % 32 == 0 && kWaveN % 32 == 0, "each wave's piece of C must be whole 32x32 pieces (both atoms fit)");

typedef int i32x8 __attribute__((ext_vector_type(8)));

template <int kBitsT, int SwB, int SwM, int SwS>
struct Tile {
  static constexpr int kBits = kBitsT;
  static constexpr int kRowBytes = kTileK * kBits / 8;                       // 128 (FP8) or 64 (FP4)
  static constexpr int kChunksPerRow = kRowBytes / kChunk;
  static constexpr int kLoadsA = kTileM * kChunksPerRow / kThreads, kLoadsB = kTileN * kChunksPerRow / kThreads;
  static constexpr int kLoads = kLoadsA > kLoadsB ? kLoadsA : kLoadsB;  // 4 or 2 in the suite's build
  static constexpr int kBytesA = kTileM * kRowBytes, kBytesB = kTileN * kRowBytes;
  static_assert(kLoadsA > 0 && kLoadsB > 0 && kLoadsA * kThreads == kTileM * kChunksPerRow &&
                    kLoadsB * kThreads == kTileN * kChunksPerRow,
                "the threads must move the A and B tiles in whole 16-byte chunks");

  __device__ static int lds_offset(int row, int byte) { return tl::swizzle<SwB, SwM, SwS>(row * kRowBytes + byte); }

  struct Staging {
    tl::u32x4 a[kLoadsA], b[kLoadsB];
  };

  // Thread t moves chunk t % kChunksPerRow of rows t / kChunksPerRow + (threads / kChunksPerRow)·i.
  __device__ static void load(Staging& s, const unsigned char* A, const unsigned char* B, int K, int m0, int n0,
                              int k0, int t) {
    const long row_bytes = (long)K * kBits / 8;
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      const int row = t / kChunksPerRow + i * (kThreads / kChunksPerRow);
      const int col = (t % kChunksPerRow) * kChunk;
      if (i < kLoadsA) s.a[i] = *reinterpret_cast<const tl::u32x4*>(A + (m0 + row) * row_bytes + k0 * kBits / 8 + col);
      if (i < kLoadsB) s.b[i] = *reinterpret_cast<const tl::u32x4*>(B + (n0 + row) * row_bytes + k0 * kBits / 8 + col);
    }
  }

  __device__ static void store(const Staging& s, unsigned char* lds_a, unsigned char* lds_b, int t) {
#pragma unroll
    for (int i = 0; i < kLoads; ++i) {
      const int row = t / kChunksPerRow + i * (kThreads / kChunksPerRow);
      const int col = (t % kChunksPerRow) * kChunk;
      if (i < kLoadsA) *reinterpret_cast<tl::u32x4*>(lds_a + lds_offset(row, col)) = s.a[i];
      if (i < kLoadsB) *reinterpret_cast<tl::u32x4*>(lds_b + lds_offset(row, col)) = s.b[i];
    }
  }

  // The 16-byte chunks c0 (v0-3) and, for FP8, c1 (v4-7) of a tile row; FP4
  // operands fill only v0-3.
  __device__ static i32x8 read(const unsigned char* tile, int row, int c0, int c1) {
    const tl::u32x4 lo = *reinterpret_cast<const tl::u32x4*>(tile + lds_offset(row, kChunk * c0));
    if constexpr (kBits == 4) {
      return i32x8{(int)lo[0], (int)lo[1], (int)lo[2], (int)lo[3], 0, 0, 0, 0};
    } else {
      const tl::u32x4 hi = *reinterpret_cast<const tl::u32x4*>(tile + lds_offset(row, kChunk * c1));
      return i32x8{(int)lo[0], (int)lo[1], (int)lo[2], (int)lo[3], (int)hi[0], (int)hi[1], (int)hi[2], (int)hi[3]};
    }
  }
};

// The MFMA atom of the tile: R x R outputs per instruction, R = 16
// (v_mfma_scale_f32_16x16x128_f8f6f4, K 128) or R = 32 (..._32x32x64_f8f6f4,
// K 64).  Lane l (g = l/R) holds operand row l%R; each K step of 128 is
// kSteps instructions per output tile.
template <int R>
struct Atom;

template <>
struct Atom<16> {
  static constexpr int kSteps = 1;
  typedef tl::f32x4 Acc;
  // Row `row`'s operand, g = l/16: FP8 chunks g and 4+g (k = 16g..+15 in
  // v0-3, 64+16g..+15 in v4-7); FP4 chunk g (k = 32g..+31 in v0-3).
  template <class T>
  __device__ static i32x8 operand(const unsigned char* tile, int row, int g, int) {
    return T::read(tile, row, g, 4 + g);
  }
  // The scale of row l%16, K-block g of the step: one byte per lane, OPSEL 0.
  __device__ static int scales(const unsigned char* scale, long row, int blocks, int step, int g) {
    return scale[row * blocks + step * 4 + g];
  }
  template <int kFormat>
  __device__ static Acc mfma(i32x8 a, i32x8 b, Acc c, int sa, int sb, int) {
    return __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a, b, c, kFormat, kFormat, 0, sa, 0, sb);
  }
  // The D row of register r in lane group g (the column is l%16).
  __device__ static int out_row(int r, int g) { return 4 * g + r; }
};

template <>
struct Atom<32> {
  static constexpr int kSteps = 2;
  typedef float Acc __attribute__((ext_vector_type(16)));
  // MFMA kk covers k = 64kk..+63; g = l/32.  FP8: chunks 4kk+g and 4kk+2+g
  // (k = 64kk+16g..+15 in v0-3, 64kk+32+16g..+15 in v4-7); FP4: chunk 2kk+g
  // (k = 64kk+32g..+31 in v0-3).
  template <class T>
  __device__ static i32x8 operand(const unsigned char* tile, int row, int g, int kk) {
    return T::kBits == 4 ? T::read(tile, row, 2 * kk + g, 0) : T::read(tile, row, 4 * kk + g, 4 * kk + 2 + g);
  }
  // One 32-bit load carries the row's four scales of the step (K-blocks
  // 4step..+3); shifted right by 8g, byte 0 is block g (MFMA 0's, OPSEL 0)
  // and byte 2 is block 2+g (MFMA 1's, OPSEL 2): lane l then holds the scale
  // of row l%32, K-block l/32 of each MFMA, as the 32x32x64 layout asks.
  __device__ static int scales(const unsigned char* scale, long row, int blocks, int step, int g) {
    return (int)(*reinterpret_cast<const unsigned*>(scale + row * blocks + step * 4) >> (8 * g));
  }
  template <int kFormat>
  __device__ static Acc mfma(i32x8 a, i32x8 b, Acc c, int sa, int sb, int kk) {
    if (kk == 0) return __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(a, b, c, kFormat, kFormat, 0, sa, 0, sb);
    return __builtin_amdgcn_mfma_scale_f32_32x32x64_f8f6f4(a, b, c, kFormat, kFormat, 2, sa, 2, sb);
  }
  // D[i][j] in lane j + 32((i/4)%2), register (i%4) + 4(i/8).
  __device__ static int out_row(int r, int g) { return 8 * (r / 4) + 4 * g + r % 4; }
};

// kFormat: the cbsz/blgp format code (0 E4M3, 4 E2M1); R: the MFMA atom.
template <int kBits, int kFormat, int SwB, int SwM, int SwS, int R = 16>
__device__ void gemm(tl::bf16* __restrict__ C, const unsigned char* __restrict__ A,
                     const unsigned char* __restrict__ scale_a, const unsigned char* __restrict__ B,
                     const unsigned char* __restrict__ scale_b, int N, int K) {
  using T = Tile<kBits, SwB, SwM, SwS>;
  using At = Atom<R>;
  using Acc = typename At::Acc;
  using Staging = typename T::Staging;
  constexpr int kFragsM = kWaveM / R, kFragsN = kWaveN / R;  // atoms per wave and dimension
  constexpr int kFrags = kFragsM > kFragsN ? kFragsM : kFragsN;

  __shared__ __attribute__((aligned(16))) unsigned char lds_a[2][T::kBytesA];
  __shared__ __attribute__((aligned(16))) unsigned char lds_b[2][T::kBytesB];
  const int t = threadIdx.x;
  const int lane = t % tl::kWaveSize, wave = t / tl::kWaveSize;
  const int m0 = blockIdx.y * kTileM, n0 = blockIdx.x * kTileN;
  const int wm = (wave / kWavesN) * kWaveM, wn = (wave % kWavesN) * kWaveN;
  const int frag_row = lane % R, g = lane / R;
  const int blocks = K / 32;

  Acc acc[kFragsM][kFragsN];
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) acc[i][j] = Acc{};

  Staging staging;
  T::load(staging, A, B, K, m0, n0, 0, t);
  T::store(staging, lds_a[0], lds_b[0], t);
  __syncthreads();

  const int steps = K / kTileK;
  for (int step = 0; step < steps; ++step) {
    const int cur = step & 1;
    const bool more = step + 1 < steps;
    if (more) T::load(staging, A, B, K, m0, n0, (step + 1) * kTileK, t);
    int sa[kFragsM], sb[kFragsN];
#pragma unroll
    for (int i = 0; i < kFrags; ++i) {
      if (i < kFragsM) sa[i] = At::scales(scale_a, m0 + wm + i * R + frag_row, blocks, step, g);
      if (i < kFragsN) sb[i] = At::scales(scale_b, n0 + wn + i * R + frag_row, blocks, step, g);
    }
#pragma unroll
    for (int kk = 0; kk < At::kSteps; ++kk) {
      i32x8 a[kFragsM], b[kFragsN];
#pragma unroll
      for (int i = 0; i < kFrags; ++i) {
        if (i < kFragsM) a[i] = At::template operand<T>(lds_a[cur], wm + i * R + frag_row, g, kk);
        if (i < kFragsN) b[i] = At::template operand<T>(lds_b[cur], wn + i * R + frag_row, g, kk);
      }
#pragma unroll
      for (int i = 0; i < kFragsM; ++i)
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) acc[i][j] = At::template mfma<kFormat>(a[i], b[j], acc[i][j], sa[i], sb[j], kk);
    }
    if (more) T::store(staging, lds_a[cur ^ 1], lds_b[cur ^ 1], t);
    __syncthreads();
  }

  constexpr int kRegs = R * R / tl::kWaveSize;
#pragma unroll
  for (int i = 0; i < kFragsM; ++i)
#pragma unroll
    for (int j = 0; j < kFragsN; ++j)
#pragma unroll
      for (int r = 0; r < kRegs; ++r) {
        const int row = m0 + wm + i * R + At::out_row(r, g);
        const int col = n0 + wn + j * R + frag_row;
        C[(long)row * N + col] = (tl::bf16)acc[i][j][r];
      }
}
}  // namespace mx_gemm_tile
#endif
