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
// Spec: spec.cpp.
// Shapes: M % 128 == 0, N % 128 == 0, K % 64 == 0.
#include "kernels/common/tilelab_hip.hpp"

namespace {
constexpr int kThreads = 256;
constexpr int kTileM = 128, kTileN = 128, kTileK = 64;
constexpr int kWaveM = 64, kWaveN = 64;   // C per wave
constexpr int kFrag = 16;                 // MFMA tile edge
constexpr int kMfmaK = 32;
constexpr int kChunk = 8;                 // bf16 per 16-byte chunk
constexpr int kChunksPerRow = kTileK / kChunk;
constexpr int kLoadsPerThread = kTileM * kChunksPerRow / kThreads;  // 4
constexpr int kTileElems = kTileM * kTileK;

// Element offset of tile element (row, k) in an LDS tile.
__device__ inline int lds_offset(int row, int k) { return tl::swizzle<3, 3, 3>(row * kTileK + k); }

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
}  // namespace

extern "C" __global__ __launch_bounds__(kThreads) void gemm_bf16(tl::bf16* __restrict__ C, const tl::bf16* __restrict__ A,
                                                                const tl::bf16* __restrict__ B, int M, int N, int K) {
  __shared__ __attribute__((aligned(16))) tl::bf16 lds_a[2][kTileElems];
  __shared__ __attribute__((aligned(16))) tl::bf16 lds_b[2][kTileElems];
  const int t = threadIdx.x;
  const int lane = t % tl::kWaveSize, wave = t / tl::kWaveSize;
  const int m0 = blockIdx.y * kTileM, n0 = blockIdx.x * kTileN;
  const int wm = (wave / 2) * kWaveM, wn = (wave % 2) * kWaveN;
  const int frag_row = lane % kFrag, frag_k = (lane / kFrag) * kChunk;

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
#pragma unroll
    for (int kk = 0; kk < kTileK; kk += kMfmaK) {
      tl::bf16x8 a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        a[i] = *reinterpret_cast<const tl::bf16x8*>(lds_a[cur] + lds_offset(wm + i * kFrag + frag_row, kk + frag_k));
        b[i] = *reinterpret_cast<const tl::bf16x8*>(lds_b[cur] + lds_offset(wn + i * kFrag + frag_row, kk + frag_k));
      }
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = tl::mfma_f32_16x16x32_bf16(a[i], b[j], acc[i][j]);
    }
    if (more) store_tiles(staging, lds_a[cur ^ 1], lds_b[cur ^ 1], t);
    __syncthreads();
  }

  // D fragment: lane l holds rows 4*(l/16) .. +4 of column l%16.
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const int row = m0 + wm + i * kFrag + (lane / kFrag) * 4 + r;
        const int col = n0 + wn + j * kFrag + lane % kFrag;
        C[(long)row * N + col] = (tl::bf16)acc[i][j][r];
      }
}
