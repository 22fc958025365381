// Fused attention forward, bf16: O = softmax(Q·Kᵀ / sqrt(D)) · V per head,
// causal or not, fp32 online-softmax statistics, and the log-sum-exp of each
// query row (natural log, for a backward pass).  Q, K, V, O: [BH][S][D]
// bf16 row-major; lse: [BH][S] f32.  D = 64 or 128 (one kernel each).
//
// Workgroup (the suite's build; the template below): 128 query rows of one
// head, 512 threads = 8 waves of 16 rows.
// KV tiles of 64 keys stream through LDS: K row-major (64 x D) and V
// transposed (Vt: D x 64), two stages of each.
//
// Per wave, everything is held "query per lane": the MFMAs compute
// Sᵀ = K·Qᵀ (A = K from LDS, B = Qᵀ kept in registers) and Oᵀ += Vᵀ·Pᵀ
// (A = Vt from LDS, B = Pᵀ from registers), so lane l owns query l%16 in both
// accumulators and the softmax statistics (max m, sum l) are per lane; a row
// reduction is 16 values in the lane plus two shuffles (lanes l^16, l^32).
// Pᵀ's K index is a permutation of the keys — lane group g holds keys
// 4g..4g+3 of two 16-key blocks — and Vt is read with the same permutation,
// so the sum over keys is unchanged.
//
// The dual-wave pipeline (ping-pong).  Waves w and w+4 share a SIMD.  Group A
// (waves 0-3) and group B (waves 4-7) run the same program offset by one
// phase; every phase ends at a workgroup barrier:
//
//   phase 2j    A: MFMA   Sᵀ_j = K_j·Qᵀ, Oᵀ += V_{j-1}·P_{j-1}   (s_setprio 1)
//               B: VALU   softmax of S_{j-1} -> P_{j-1}; stage V_j
//   phase 2j+1  A: VALU   softmax of S_j -> P_j; stage K_{j+1}
//               B: MFMA   Sᵀ_j = K_j·Qᵀ, Oᵀ += V_{j-1}·P_{j-1}   (s_setprio 1)
//
// so on every SIMD one wave issues MFMAs while its partner does the softmax
// (exp2, max, sums, bf16 packing) and the staging of the next tile (its
// chunks fetched into registers two phases earlier are written to LDS, and
// the tile after it is fetched): the softmax VALU work of one KV tile overlaps the MFMA work of
// another.  The MFMA wave raises its priority so the matrix core is fed first
// and the VALU wave fills the remaining issue slots.  Staging hazards: K_{j+1}
// goes to stage (j+1)%2 in phase 2j+1, whose last reader (K_{j-1}) was in
// phase 2j-1; V_j goes to stage j%2 in phase 2j, last read (V_{j-2}) in phase
// 2j-1.  One barrier per phase is enough.
//
// LDS layouts (spec.cpp): K tile row-major composed with Sw<log2(D/8),3,log2(D)-3>
// (16-byte unit u of key row n at u ^ (n % (D/8))); Vt row-major D x 64
// composed with Sw<4,2,4> (8-byte unit k of row d at k ^ (d % 16)).
// Shapes: S % 128 == 0; causal masks key > query (top-left aligned).
//
// A template: the query tile (and with it the waves), the KV tile, the
// ping-pong and the MFMA wave's priority are compile-time parameters
// (-DTL_NAME=V: `tilelab compile attention_fwd --params ...`, a sweep's
// `params`; attention_fwd.launch.toml launches any of them):
//   TL_TILE_Q    query rows per workgroup, 16 per wave (64: 4 waves, 128: 8,
//                the suite's build, 256: 16);
//   TL_TILE_KV   keys per KV tile (32, 64: the suite's build, or 128);
//   TL_PINGPONG  1: the two wave groups alternate phases as above; 0: every
//                wave does the MFMA phase of tile j, then every wave its
//                softmax (K_{j+1} and V_j staged meanwhile), so MFMA and VALU
//                work alternate on each SIMD instead of overlapping;
//   TL_SETPRIO   1: the MFMA wave raises its priority; 0: it does not.
// Waves w and w + waves/2 share a SIMD only when waves/2 is a multiple of 4
// (8 or 16 waves): with 4 waves the two groups sit on different SIMDs and
// the ping-pong overlaps nothing.  Every choice computes the same O up to the
// order of the online softmax's rescalings (the KV tile) and bf16 rounding.
// Notebook 06's variants (build/kernels/variants/): TILELAB_ATTN_NO_SETPRIO
// is TL_SETPRIO=0, TILELAB_ATTN_ONE_GROUP is TL_PINGPONG=0.
#include "kernels/common/tilelab_hip.hpp"

#ifdef TILELAB_ATTN_NO_SETPRIO
#define TL_SETPRIO 0
#endif
#ifdef TILELAB_ATTN_ONE_GROUP
#define TL_PINGPONG 0
#endif
#ifndef TL_TILE_Q
#define TL_TILE_Q 128
#endif
#ifndef TL_TILE_KV
#define TL_TILE_KV 64
#endif
#ifndef TL_PINGPONG
#define TL_PINGPONG 1
#endif
#ifndef TL_SETPRIO
#define TL_SETPRIO 1
#endif

namespace attention_fwd {

constexpr int kTileQ = TL_TILE_Q, kTileKV = TL_TILE_KV;
constexpr int kWaves = kTileQ / 16, kThreads = 64 * kWaves, kGroupThreads = kThreads / 2;
// What a parameter choice must satisfy; a variant that breaks one does not
// compile, and a sweep records the message as its reason.
static_assert(kTileQ == 64 || kTileQ == 128 || kTileQ == 256, "TL_TILE_Q is 64, 128 or 256 (16 query rows per wave)");
static_assert(kTileKV == 32 || kTileKV == 64 || kTileKV == 128, "TL_TILE_KV is 32, 64 or 128");
static_assert(kTileQ % kTileKV == 0, "a causal query block must end on a KV tile: TL_TILE_Q % TL_TILE_KV == 0");
static_assert(TL_PINGPONG == 0 || TL_PINGPONG == 1, "TL_PINGPONG is 0 or 1");
static_assert(TL_SETPRIO == 0 || TL_SETPRIO == 1, "TL_SETPRIO is 0 or 1");

template <int D>
struct Lds {
  static constexpr int kUnits = D / 8;                 // 16-byte units per K row
  static constexpr int kKBytes = kTileKV * D * 2;       // one K stage
  static constexpr int kVBytes = D * kTileKV * 2;       // one Vt stage
  static constexpr int kBytes = 2 * kKBytes + 2 * kVBytes;
  __device__ static int k_offset(int stage, int n, int u) { return stage * kKBytes + n * D * 2 + ((u ^ (n % kUnits)) << 4); }
  // Key n of row d (n a multiple of 4 for the 8-byte reads).  The swizzle
  // depends on the row's length (tilelab swizzle's conflict-free choice for
  // the transposing ds_write_b16 and the ds_read_b64 operand read, spec.cpp):
  // 64 keys Sw<4,2,4> (8-byte unit n/4 ^ d%16), 32 keys Sw<3,2,4>, 128 keys
  // Sw<4,3,4> (16-byte unit n/8 ^ d%16).
  __device__ static int vt_offset(int stage, int d, int n) {
    const int base = 2 * kKBytes + stage * kVBytes;
    if constexpr (kTileKV == 64) return base + d * (kTileKV * 2) + ((((n >> 2) ^ (d & 15))) << 3) + ((n & 3) << 1);
    if constexpr (kTileKV == 32) return base + d * (kTileKV * 2) + ((((n >> 2) ^ ((d >> 1) & 7))) << 3) + ((n & 3) << 1);
    return base + d * (kTileKV * 2) + ((((n >> 3) ^ (d & 15))) << 4) + (n & 7) * 2;
  }
};

template <int D>
__device__ void attention(tl::bf16* __restrict__ O, float* __restrict__ lse, const tl::bf16* __restrict__ Q,
                          const tl::bf16* __restrict__ K, const tl::bf16* __restrict__ V, int S, int causal) {
  __shared__ __attribute__((aligned(16))) unsigned char lds[Lds<D>::kBytes];
  const int t = threadIdx.x, wave = t / tl::kWaveSize, lane = (int)tl::lane_id();
  const int group = wave / (kWaves / 2), gt = t % kGroupThreads;
  const long head = (long)blockIdx.y * S * D;
  const int q_block = blockIdx.x * kTileQ;
  const int i = lane % 16, g = lane / 16;
  const int my_q = q_block + 16 * wave + i;
  const float scale_log2 = (D == 64 ? 0.125f : 0.08838834764831845f) * 1.4426950408889634f;  // log2(e)/sqrt(D)

  tl::bf16x8 qf[D / 32];  // Qᵀ fragments: lane l holds Q[my_q][32c + 8g .. +8]
#pragma unroll
  for (int c = 0; c < D / 32; ++c) qf[c] = *reinterpret_cast<const tl::bf16x8*>(Q + head + (long)my_q * D + 32 * c + 8 * g);

  const int kv_end = causal ? (S < q_block + kTileQ ? S : q_block + kTileQ) : S;
  const int tiles = kv_end / kTileKV;

  // Staging by one group (256 threads): fetch loads a tile's chunks into
  // registers, store writes them into LDS.  With the prefetch the two are a
  // phase apart, so the global loads of the next tile are in flight while
  // the group computes, instead of being waited out inside a phase; it holds
  // a thread's chunks of one K and one V tile in registers, so it is used
  // where that is at most 4 of each (32 VGPRs: 128 query rows with 64-key
  // tiles; a 128-key tile's 8 + 8 spilled).  K chunk c is row c/(D/8), unit
  // c%(D/8); V chunk c is key c%kTileKV, elements 8*(c/kTileKV)..+8,
  // scattered into Vt's rows.
  constexpr int kChunks = kTileKV * D / 8 / kGroupThreads;  // per thread, of K and of V
  static_assert(kChunks * kGroupThreads == kTileKV * D / 8, "a group stages a KV tile in whole 16-byte chunks");
  constexpr bool kPrefetch = kChunks <= 4;
  constexpr int kHeld = kPrefetch ? kChunks : 0;  // chunks held in registers between phases
  tl::u32x4 k_regs[kHeld > 0 ? kHeld : 1];
  tl::bf16x8 v_regs[kHeld > 0 ? kHeld : 1];
  auto load_k_chunk = [&](int tile, int r) {
    const int c = gt + r * kGroupThreads, n = c / (D / 8), u = c % (D / 8);
    return *reinterpret_cast<const tl::u32x4*>(K + head + (long)(tile * kTileKV + n) * D + 8 * u);
  };
  auto store_k_chunk = [&](int stage, int r, const tl::u32x4& v) {
    const int c = gt + r * kGroupThreads, n = c / (D / 8), u = c % (D / 8);
    *reinterpret_cast<tl::u32x4*>(lds + Lds<D>::k_offset(stage, n, u)) = v;
  };
  auto load_v_chunk = [&](int tile, int r) {
    const int c = gt + r * kGroupThreads, n = c % kTileKV, d0 = 8 * (c / kTileKV);
    return *reinterpret_cast<const tl::bf16x8*>(V + head + (long)(tile * kTileKV + n) * D + d0);
  };
  auto store_v_chunk = [&](int stage, int r, const tl::bf16x8& v) {
    const int c = gt + r * kGroupThreads, n = c % kTileKV, d0 = 8 * (c / kTileKV);
#pragma unroll
    for (int e = 0; e < 8; ++e) *reinterpret_cast<tl::bf16*>(lds + Lds<D>::vt_offset(stage, d0 + e, n)) = v[e];
  };
  auto fetch_k = [&](int tile) {
#pragma unroll
    for (int r = 0; r < kHeld; ++r) k_regs[r] = load_k_chunk(tile, r);
  };
  auto store_k = [&](int stage) {
#pragma unroll
    for (int r = 0; r < kHeld; ++r) store_k_chunk(stage, r, k_regs[r]);
  };
  auto fetch_v = [&](int tile) {
#pragma unroll
    for (int r = 0; r < kHeld; ++r) v_regs[r] = load_v_chunk(tile, r);
  };
  auto store_v = [&](int stage) {
#pragma unroll
    for (int r = 0; r < kHeld; ++r) store_v_chunk(stage, r, v_regs[r]);
  };

  tl::f32x4 o[D / 16];  // Oᵀ: lane l holds O[my_q][16db + 4g .. +4]
#pragma unroll
  for (int db = 0; db < D / 16; ++db) o[db] = tl::f32x4{0.f, 0.f, 0.f, 0.f};
  constexpr int kKeyBlocks = kTileKV / 16, kKeyChunks = kTileKV / 32;
  tl::f32x4 s[kKeyBlocks];   // Sᵀ: lane l holds keys 16nb + 4g .. +4 of its query
  tl::bf16x8 p[kKeyChunks];  // Pᵀ fragments of the 32-key chunks
  float m = -__builtin_inff(), l = 0.f;

  // The MFMA phase of tile j: Sᵀ_j (if j < tiles) and Oᵀ += V_{j-1}·P_{j-1} (if j > 0).
  auto mfma_phase = [&](int j) {
    if constexpr (TL_SETPRIO) tl::set_priority<1>();
    if (j > 0) {
      const int stage = (j - 1) & 1;
#pragma unroll
      for (int db = 0; db < D / 16; ++db)
#pragma unroll
        for (int kc = 0; kc < kKeyChunks; ++kc) {
          const int d = 16 * db + i, n0 = 32 * kc + 4 * g;
          const tl::u32x2 lo = *reinterpret_cast<const tl::u32x2*>(lds + Lds<D>::vt_offset(stage, d, n0));
          const tl::u32x2 hi = *reinterpret_cast<const tl::u32x2*>(lds + Lds<D>::vt_offset(stage, d, n0 + 16));
          const tl::u32x4 a = {lo[0], lo[1], hi[0], hi[1]};
          o[db] = tl::mfma_f32_16x16x32_bf16(__builtin_bit_cast(tl::bf16x8, a), p[kc], o[db]);
        }
    }
    if (j < tiles) {
      const int stage = j & 1;
#pragma unroll
      for (int nb = 0; nb < kKeyBlocks; ++nb) {
        s[nb] = tl::f32x4{0.f, 0.f, 0.f, 0.f};
#pragma unroll
        for (int c = 0; c < D / 32; ++c) {
          const tl::bf16x8 kf = *reinterpret_cast<const tl::bf16x8*>(lds + Lds<D>::k_offset(stage, 16 * nb + i, 4 * c + g));
          s[nb] = tl::mfma_f32_16x16x32_bf16(kf, qf[c], s[nb]);
        }
      }
    }
    if constexpr (TL_SETPRIO) tl::set_priority<0>();
  };

  // The softmax of tile j: new running max, rescale of l and Oᵀ, P_j in bf16.
  auto softmax_phase = [&](int j) {
    float x[4 * kKeyBlocks], tile_max = -__builtin_inff();
    // The mask costs a compare and a select per score: only a tile with a key
    // past the wave's first query needs it (the diagonal's; a uniform branch).
    const bool masked = causal && j * kTileKV + kTileKV - 1 > q_block + 16 * wave;
    if (masked) {
#pragma unroll
      for (int nb = 0; nb < kKeyBlocks; ++nb)
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          const int key = j * kTileKV + 16 * nb + 4 * g + r;
          const float v = key > my_q ? -__builtin_inff() : s[nb][r] * scale_log2;
          x[4 * nb + r] = v;
          tile_max = __builtin_fmaxf(tile_max, v);
        }
    } else {
#pragma unroll
      for (int nb = 0; nb < kKeyBlocks; ++nb)
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          x[4 * nb + r] = s[nb][r] * scale_log2;
          tile_max = __builtin_fmaxf(tile_max, x[4 * nb + r]);
        }
    }
    tile_max = __builtin_fmaxf(tile_max, tl::shuffle_xor(tile_max, 16));
    tile_max = __builtin_fmaxf(tile_max, tl::shuffle_xor(tile_max, 32));
    const float m_new = __builtin_fmaxf(m, tile_max);
    const float m_use = m_new == -__builtin_inff() ? 0.f : m_new;  // a row with no key yet: no NaN from -inf - -inf
    const float alpha = __builtin_amdgcn_exp2f(m - m_use);
    float sum = 0.f;
#pragma unroll
    for (int k = 0; k < 4 * kKeyBlocks; ++k) {
      x[k] = __builtin_amdgcn_exp2f(x[k] - m_use);
      sum += x[k];
    }
    sum += tl::shuffle_xor(sum, 16);
    sum += tl::shuffle_xor(sum, 32);
    l = l * alpha + sum;
    m = m_new;
#pragma unroll
    for (int db = 0; db < D / 16; ++db) o[db] *= alpha;
#pragma unroll
    for (int kc = 0; kc < kKeyChunks; ++kc)
#pragma unroll
      for (int q = 0; q < 8; ++q) p[kc][q] = (tl::bf16)x[4 * (2 * kc + q / 4) + q % 4];
  };

  // With the prefetch, past the last tile a fetch loads the last one again
  // (unused): loads issued on every path keep the staged registers one
  // value, where a fetch under a condition made the compiler copy them and
  // wait for the loads at the copy.
  const auto last = [tiles](int tile) { return tile < tiles ? tile : tiles - 1; };
  // Without the prefetch: load four chunks, store them, and so on (four
  // loads in flight).
  auto copy_in_batches = [&](auto load, auto store) {
    constexpr int kBatch = kChunks < 4 ? kChunks : 4;
#pragma unroll 1
    for (int r0 = 0; r0 < kChunks; r0 += kBatch) {
      decltype(load(0)) v[kBatch];
#pragma unroll
      for (int r = 0; r < kBatch; ++r) v[r] = load(r0 + r);
#pragma unroll
      for (int r = 0; r < kBatch; ++r) store(r0 + r, v[r]);
    }
  };
  auto stage_k = [&](int tile) {  // K_tile into stage tile%2 (prefetched: and the next one fetched)
    if constexpr (kPrefetch) {
      store_k(tile & 1);
      fetch_k(last(tile + 1));
    } else {  // four chunks at a time (all unrolled, every load was hoisted and the registers spilled)
      copy_in_batches([&](int r) { return load_k_chunk(tile, r); }, [&](int r, const tl::u32x4& v) { store_k_chunk(tile & 1, r, v); });
    }
  };
  auto stage_v = [&](int tile) {  // V_tile into stage tile%2 (likewise)
    if constexpr (kPrefetch) {
      store_v(tile & 1);
      fetch_v(last(tile + 1));
    } else {
      copy_in_batches([&](int r) { return load_v_chunk(tile, r); }, [&](int r, const tl::bf16x8& v) { store_v_chunk(tile & 1, r, v); });
    }
  };

  // The prologue: K_0 in LDS; with the prefetch K_1 and V_0 in flight.
  if (group == 0) {
    if constexpr (kPrefetch) {
      fetch_k(0);
      stage_k(0);
    } else {
      stage_k(0);
    }
  } else if constexpr (kPrefetch) {
    fetch_v(0);
  }
  __syncthreads();
#if !TL_PINGPONG
  for (int j = 0; j <= tiles; ++j) {
    mfma_phase(j);  // reads K_j (stage j%2) and V_{j-1} (stage (j-1)%2)
    __syncthreads();
    if (j < tiles) softmax_phase(j);
    if (group == 0 && j + 1 < tiles) stage_k(j + 1);  // last read: K_{j-1}
    if (group == 1 && j < tiles) stage_v(j);          // last read: V_{j-2}
    __syncthreads();
  }
#else
  for (int j = 0; j <= tiles; ++j) {
    // phase 2j
    if (group == 0) {
      mfma_phase(j);
    } else {
      if (j > 0) softmax_phase(j - 1);
      if (j < tiles) stage_v(j);
    }
    __syncthreads();
    // phase 2j+1
    if (group == 0) {
      if (j < tiles) softmax_phase(j);
      if (j + 1 < tiles) stage_k(j + 1);
    } else {
      mfma_phase(j);
    }
    __syncthreads();
  }
#endif

  // O = Oᵀ / l, four consecutive elements per lane and block; lse = ln(sum exp(s)).
  const float inv_l = 1.f / l;
#pragma unroll
  for (int db = 0; db < D / 16; ++db) {
    tl::bf16x4 out;
#pragma unroll
    for (int r = 0; r < 4; ++r) out[r] = (tl::bf16)(o[db][r] * inv_l);
    *reinterpret_cast<tl::bf16x4*>(O + head + (long)my_q * D + 16 * db + 4 * g) = out;
  }
  if (g == 0) lse[(long)blockIdx.y * S + my_q] = (m + __builtin_amdgcn_logf(l)) * 0.6931471805599453f;
}

}  // namespace attention_fwd

extern "C" __global__ __launch_bounds__(attention_fwd::kThreads) void attention_fwd_d64(
    tl::bf16* __restrict__ O, float* __restrict__ lse, const tl::bf16* __restrict__ Q, const tl::bf16* __restrict__ K,
    const tl::bf16* __restrict__ V, int S, int causal TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  attention_fwd::attention<64>(O, lse, Q, K, V, S, causal);
}

extern "C" __global__ __launch_bounds__(attention_fwd::kThreads) void attention_fwd_d128(
    tl::bf16* __restrict__ O, float* __restrict__ lse, const tl::bf16* __restrict__ Q, const tl::bf16* __restrict__ K,
    const tl::bf16* __restrict__ V, int S, int causal TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  attention_fwd::attention<128>(O, lse, Q, K, V, S, causal);
}
