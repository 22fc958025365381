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
#include "kernels/common/tilelab_hip.hpp"

#if defined(__gfx950__)
namespace {
constexpr int kThreads = 256;
constexpr int kTile = 128, kTileK = 128;
constexpr int kRowBytes = kTileK / 2;                               // 64: two E2M1 per byte
constexpr int kWave = 64, kFrag = 16;
constexpr int kChunk = 16;
constexpr int kChunksPerRow = kRowBytes / kChunk;                   // 4
constexpr int kLoadsPerThread = kTile * kChunksPerRow / kThreads;   // 2
constexpr int kTileBytes = kTile * kRowBytes;
constexpr int kFmtE2M1 = 4;  // cbsz / blgp format code

typedef int i32x8 __attribute__((ext_vector_type(8)));

__device__ inline int lds_offset(int row, int byte) { return tl::swizzle<2, 4, 3>(row * kRowBytes + byte); }

struct Staging {
  tl::u32x4 a[kLoadsPerThread], b[kLoadsPerThread];
};

__device__ inline void load_tiles(Staging& s, const unsigned char* A, const unsigned char* B, int K, int m0, int n0,
                                  int k0, int t) {
  const long row_bytes = K / 2;
#pragma unroll
  for (int i = 0; i < kLoadsPerThread; ++i) {
    const int row = t / kChunksPerRow + i * (kThreads / kChunksPerRow);
    const int col = (t % kChunksPerRow) * kChunk;
    s.a[i] = *reinterpret_cast<const tl::u32x4*>(A + (m0 + row) * row_bytes + k0 / 2 + col);
    s.b[i] = *reinterpret_cast<const tl::u32x4*>(B + (n0 + row) * row_bytes + k0 / 2 + col);
  }
}

__device__ inline void store_tiles(const Staging& s, unsigned char* lds_a, unsigned char* lds_b, int t) {
#pragma unroll
  for (int i = 0; i < kLoadsPerThread; ++i) {
    const int row = t / kChunksPerRow + i * (kThreads / kChunksPerRow);
    const int col = (t % kChunksPerRow) * kChunk;
    *reinterpret_cast<tl::u32x4*>(lds_a + lds_offset(row, col)) = s.a[i];
    *reinterpret_cast<tl::u32x4*>(lds_b + lds_offset(row, col)) = s.b[i];
  }
}

// The 32 E2M1 values of row `row`, k = 32g..32g+31, in the operand's low four registers.
__device__ inline i32x8 operand(const unsigned char* tile, int row, int g) {
  const tl::u32x4 v = *reinterpret_cast<const tl::u32x4*>(tile + lds_offset(row, kChunk * g));
  return i32x8{(int)v[0], (int)v[1], (int)v[2], (int)v[3], 0, 0, 0, 0};
}
}  // namespace

extern "C" __global__ __launch_bounds__(kThreads) void gemm_mxfp4(tl::bf16* __restrict__ C,
                                                                 const unsigned char* __restrict__ A,
                                                                 const unsigned char* __restrict__ scale_a,
                                                                 const unsigned char* __restrict__ B,
                                                                 const unsigned char* __restrict__ scale_b, int M,
                                                                 int N, int K) {
  (void)M;
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
  load_tiles(staging, A, B, K, m0, n0, 0, t);
  store_tiles(staging, lds_a[0], lds_b[0], t);
  __syncthreads();

  const int steps = K / kTileK;
  for (int step = 0; step < steps; ++step) {
    const int cur = step & 1;
    const bool more = step + 1 < steps;
    if (more) load_tiles(staging, A, B, K, m0, n0, (step + 1) * kTileK, t);
    int sa[4], sb[4];
    i32x8 a[4], b[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      sa[i] = scale_a[(long)(m0 + wm + i * kFrag + frag_row) * blocks + step * 4 + g];
      sb[i] = scale_b[(long)(n0 + wn + i * kFrag + frag_row) * blocks + step * 4 + g];
      a[i] = operand(lds_a[cur], wm + i * kFrag + frag_row, g);
      b[i] = operand(lds_b[cur], wn + i * kFrag + frag_row, g);
    }
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 4; ++j)
        acc[i][j] = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a[i], b[j], acc[i][j], kFmtE2M1, kFmtE2M1, 0,
                                                                    sa[i], 0, sb[j]);
    if (more) store_tiles(staging, lds_a[cur ^ 1], lds_b[cur ^ 1], t);
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
#endif
