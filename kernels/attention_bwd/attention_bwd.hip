// Attention backward, bf16, D = 64 and 128, causal or not: from Q, K, V, the
// forward's O and log-sum-exp (natural log) and the output gradient dO, the
// gradients dQ, dK, dV.  Q, K, V, O, dO, dQ, dK, dV: [BH][S][D] bf16
// row-major; lse, delta: [BH][S] f32.  With s = Q·Kᵀ/sqrt(D), P = exp(s - lse):
//   dV = Pᵀ·dO,  dP = dO·Vᵀ,  dS = P ∘ (dP - delta),  dQ = dS·K/sqrt(D),
//   dK = dSᵀ·Q/sqrt(D),  delta_i = rowsum(dO_i ∘ O_i)  (= rowsum(P ∘ dP)).
//
// The pass is two kernels, launched in order by the host:
//   attention_bwd_prep_dD  the preprocessing: delta per query row, 16 rows
//                          per workgroup of 256 (16 threads per row, shuffles);
//   attention_bwd_dD       one grid of two kinds of workgroups over
//                          x = ceil(S/64) key blocks + ceil(S/64) query blocks:
//     key block kb (x < nkb): dK and dV of keys 64kb..+64.  Wave w owns keys
//       16w..+16 with K and V in registers (as the B operands Kᵀ, Vᵀ); for each
//       query tile (causal: from tile kb on) it recomputes S and dP (16 keys x
//       64 queries: lane l owns key l%16, queries 16qb + 4(l/16)..+4), forms P
//       and dS in the MFMA's output layout, which is the B operand layout of
//       the next products: dVᵀ += dOᵀ·P and dKᵀ += Qᵀ·dS (A from the
//       transposed tiles in LDS), so dKᵀ and dVᵀ accumulate in registers for
//       the whole loop and are stored once;
//     query block (x >= nkb): dQ of queries 64qb..+64, the separate pass for
//       dQ: wave w owns queries 16w..+16 with Q and dO in registers; for each
//       key tile (causal: up to the diagonal) it recomputes Sᵀ = K·Qᵀ and
//       dPᵀ = V·dOᵀ (lane l owns query l%16), Pᵀ and dSᵀ, and dQᵀ += Kᵀ·dSᵀ.
//   dQ by a separate pass, not atomics: every launch writes the same bits
//   (no f32 accumulation order between workgroups, no zeroing launch), at the
//   cost of recomputing S and dP in the dQ workgroups: per pair of a query
//   and a key tile, 7 tile products (S, dP, dV, dK in the key block; S, dP,
//   dQ in the query block) where atomics would need 5.
//
// Tiles: 64 rows, staged into LDS by all 256 threads; one tensor row-major
// (the A operand of S or Sᵀ, read as the forward reads K), the same tensor
// transposed (the A operand of the gradient products, read as the forward
// reads Vt), a second tensor row-major (dO or V) and, for key blocks, it
// transposed (dOᵀ).  The next tile's global loads go to registers before
// the MFMAs of this one and to LDS after them (one stage: 4 tiles of D = 128
// are 64 KiB, all of gfx942's LDS).  Rows at or past S load as zeros and
// their P is 0, so any S works; stores stop at S.
//
// LDS layouts (spec.cpp): row-major 64 x D composed with
// Sw<log2(D/8),3,log2(D)-3> (16-byte unit u of row n at u ^ (n % (D/8)));
// transposed D x 64 composed with Sw<4,2,4> (8-byte unit k of row d at k ^ (d % 16)).
//
// attention_bwd_tr_dD (gfx950): the gradient products' A operands come from
// the row-major tiles through ds_read_b64_tr_b16 (gradient_operand below), so
// LDS holds X and Y only (16 / 32 KiB) and the copy writes no 2-byte
// transposes; at D = 128 the row-major tiles are composed with Sw<3,4,3>.
#include "kernels/common/tilelab_hip.hpp"

namespace attention_bwd {

constexpr int kThreads = 256, kTile = 64;

// Tr: gfx950's transposing read (ds_read_b64_tr_b16) gives the gradient
// products' A operands straight from the row-major tiles, so LDS holds X and
// Y only (the attention_bwd_tr_dD kernels); otherwise Xᵀ and Yᵀ are stored too.
template <int D, bool Tr = false>
struct Lds {
  static constexpr int kUnits = D / 8;          // 16-byte units per row
  static constexpr int kTileBytes = kTile * D * 2;
  static constexpr int kX = 0, kXt = 1, kY = Tr ? 1 : 2, kYt = 3;  // tile slots
  static constexpr int kBytes = (Tr ? 2 : 4) * kTileBytes;
  // Row-major tile b (kX, kY), row n, 16-byte unit u, composed with
  // Sw<log2(D/8),3,log2(D/8)> (unit u at u ^ (n % (D/8))), except for the
  // transposing reads at D = 128: Sw<3,4,3> (unit u at u ^ 2(n % 8)), as the
  // eight rows one read pass spans fill all 64 banks only then.
  static constexpr bool kTrSwizzle = Tr && D == 128;
  __device__ static int row_offset(int b, int n, int u) {
    const int unit = kTrSwizzle ? u ^ (2 * (n % 8)) : u ^ (n % kUnits);
    return b * kTileBytes + n * D * 2 + (unit << 4);
  }
  // Transposed tile b (kXt, kYt), row d, column n (n a multiple of 4 for the 8-byte reads).
  __device__ static int t_offset(int b, int d, int n) {
    return b * kTileBytes + d * (kTile * 2) + (((n >> 2) ^ (d & 15)) << 3) + ((n & 3) << 1);
  }
};

// Global -> registers -> LDS for one 64-row tile of X and Y.  Chunk c of a
// tensor is row c % 64, elements 8(c / 64)..+8: the 64 lanes of a wave take
// 64 consecutive rows, so the transposed 2-byte writes of a lane group land in
// one row of the transposed tile, consecutive columns.  With Tr (no
// transposed writes) chunk c is row c / (D/8), elements 8(c % (D/8))..+8:
// a row's 16-byte units from consecutive lanes, which any unit swizzle keeps
// on distinct banks.
template <int D, bool Tr>
struct Staging {
  using L = Lds<D, Tr>;
  static constexpr int kChunks = kTile * D / 8 / kThreads;  // per thread and tensor: 2 or 4
  tl::u32x4 x[kChunks], y[kChunks];

  __device__ void load(const tl::bf16* X, const tl::bf16* Y, long head, int row0, int S, int t) {
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const int c = t + k * kThreads, n = Tr ? c / (D / 8) : c % kTile, d0 = 8 * (Tr ? c % (D / 8) : c / kTile);
      const bool in = row0 + n < S;
      const long at = head + (long)(row0 + n) * D + d0;
      x[k] = in ? *reinterpret_cast<const tl::u32x4*>(X + at) : tl::u32x4{0, 0, 0, 0};
      y[k] = in ? *reinterpret_cast<const tl::u32x4*>(Y + at) : tl::u32x4{0, 0, 0, 0};
    }
  }
  __device__ void store(unsigned char* lds, bool y_transposed, int t) const {
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const int c = t + k * kThreads, n = Tr ? c / (D / 8) : c % kTile, u = Tr ? c % (D / 8) : c / kTile;
      *reinterpret_cast<tl::u32x4*>(lds + L::row_offset(L::kX, n, u)) = x[k];
      *reinterpret_cast<tl::u32x4*>(lds + L::row_offset(L::kY, n, u)) = y[k];
      if constexpr (!Tr) {
        const tl::bf16x8 xe = __builtin_bit_cast(tl::bf16x8, x[k]), ye = __builtin_bit_cast(tl::bf16x8, y[k]);
#pragma unroll
        for (int e = 0; e < 8; ++e) *reinterpret_cast<tl::bf16*>(lds + L::t_offset(L::kXt, 8 * u + e, n)) = xe[e];
        if (y_transposed) {
#pragma unroll
          for (int e = 0; e < 8; ++e) *reinterpret_cast<tl::bf16*>(lds + L::t_offset(L::kYt, 8 * u + e, n)) = ye[e];
        }
      }
    }
  }
};

template <int D, bool Tr>
__device__ tl::bf16x8 row_operand(const unsigned char* lds, bool y, int row, int c, int g) {
  using L = Lds<D, Tr>;
  return *reinterpret_cast<const tl::bf16x8*>(lds + L::row_offset(y ? L::kY : L::kX, row, 4 * c + g));
}

#if defined(__gfx950__)
typedef short s16x4 __attribute__((ext_vector_type(4)));
// ds_read_b64_tr_b16 at row `row`, column `col` of row-major tile b: in each
// block of 16 lanes, lane t's element n is element t&3 of the 8 bytes lane
// (t>>2) + 4n read (arch-facts, "Transposing reads").
template <int D>
__device__ tl::u32x2 read_tr(const unsigned char* lds, int b, int row, int col) {
  const unsigned char* at = lds + Lds<D, true>::row_offset(b, row, col / 8) + 2 * (col % 8);
  return __builtin_bit_cast(tl::u32x2, __builtin_amdgcn_ds_read_tr16_b64_v4i16((__attribute__((address_space(3))) s16x4*)(at)));
}
#endif

// The A operand of a gradient product (row d = 16db + i of Xᵀ or Yᵀ, lane
// l = 16g + i): columns 32kc + 4g..+4 and 32kc + 16 + 4g..+4, the key/query
// permutation of the B operand pack() builds.  Without Tr it is two 8-byte
// reads of the transposed tile.  With Tr, lane i of block g reads row
// 32kc + 4g + i/4 (+16), columns 16db + 4(i%4)..+4 of the row-major tile, and
// the transposing read hands lane i column 16db + i of those four rows.
template <int D, bool Tr>
__device__ tl::bf16x8 gradient_operand(const unsigned char* lds, bool y, int db, int i, int kc, int g) {
  using L = Lds<D, Tr>;
  tl::u32x2 lo, hi;
  if constexpr (Tr) {
#if defined(__gfx950__)
    const int row = 32 * kc + 4 * g + i / 4, col = 16 * db + 4 * (i % 4), b = y ? L::kY : L::kX;
    lo = read_tr<D>(lds, b, row, col);
    hi = read_tr<D>(lds, b, row + 16, col);
#endif
  } else {
    const int d = 16 * db + i, n0 = 32 * kc + 4 * g, b = y ? L::kYt : L::kXt;
    lo = *reinterpret_cast<const tl::u32x2*>(lds + L::t_offset(b, d, n0));
    hi = *reinterpret_cast<const tl::u32x2*>(lds + L::t_offset(b, d, n0 + 16));
  }
  return __builtin_bit_cast(tl::bf16x8, (tl::u32x4{lo[0], lo[1], hi[0], hi[1]}));
}
// Four 16-row MFMA outputs (rows 4g..+4 of block b in register r) as the two
// bf16 B operands of a 64-long contraction over those rows.
__device__ inline void pack(const tl::f32x4 (&v)[4], tl::bf16x8 (&out)[2]) {
#pragma unroll
  for (int kc = 0; kc < 2; ++kc)
#pragma unroll
    for (int q = 0; q < 8; ++q) out[kc][q] = (tl::bf16)v[2 * kc + q / 4][q % 4];
}

template <int D>
struct Consts {
  static constexpr float kScale = D == 64 ? 0.125f : 0.08838834764831845f;  // 1/sqrt(D)
  static constexpr float kLog2e = 1.4426950408889634f;
};

// dK and dV of keys k0..k0+63.
template <int D, bool Tr>
__device__ void key_block(tl::bf16* dK, tl::bf16* dV, const tl::bf16* Q, const tl::bf16* K, const tl::bf16* V,
                          const tl::bf16* dO, const float* lse, const float* delta, int S, int causal, int kb,
                          unsigned char* lds) {
  const int t = threadIdx.x, wave = t / tl::kWaveSize, lane = (int)tl::lane_id(), i = lane % 16, g = lane / 16;
  const long head = (long)blockIdx.y * S * D, rows = (long)blockIdx.y * S;
  const int my_key = kTile * kb + 16 * wave + i;
  const bool key_in = my_key < S;
  tl::bf16x8 kf[D / 32], vf[D / 32];  // Kᵀ, Vᵀ B operands: lane l holds K[my_key][32c + 8g..+8]
#pragma unroll
  for (int c = 0; c < D / 32; ++c) {
    const long at = head + (long)my_key * D + 32 * c + 8 * g;
    kf[c] = key_in ? *reinterpret_cast<const tl::bf16x8*>(K + at) : tl::bf16x8{};
    vf[c] = key_in ? *reinterpret_cast<const tl::bf16x8*>(V + at) : tl::bf16x8{};
  }
  tl::f32x4 dk[D / 16], dv[D / 16];  // dKᵀ, dVᵀ: lane l holds d = 16db + 4g..+4 of my_key
#pragma unroll
  for (int db = 0; db < D / 16; ++db) dk[db] = dv[db] = tl::f32x4{0.f, 0.f, 0.f, 0.f};

  const int tiles = (S + kTile - 1) / kTile, first = causal ? kb : 0;
  Staging<D, Tr> st;
  st.load(Q, dO, head, kTile * first, S, t);
  for (int qt = first; qt < tiles; ++qt) {
    __syncthreads();  // the previous tile's reads are done
    st.store(lds, true, t);
    __syncthreads();
    if (qt + 1 < tiles) st.load(Q, dO, head, kTile * (qt + 1), S, t);
    tl::f32x4 s[4], dp[4];
#pragma unroll
    for (int qb = 0; qb < 4; ++qb) {
      s[qb] = dp[qb] = tl::f32x4{0.f, 0.f, 0.f, 0.f};
#pragma unroll
      for (int c = 0; c < D / 32; ++c) {
        s[qb] = tl::mfma_f32_16x16x32_bf16(row_operand<D, Tr>(lds, false, 16 * qb + i, c, g), kf[c], s[qb]);
        dp[qb] = tl::mfma_f32_16x16x32_bf16(row_operand<D, Tr>(lds, true, 16 * qb + i, c, g), vf[c], dp[qb]);
      }
    }
    // S and dP: lane l holds query 64qt + 16qb + 4g + r of key my_key.  Its
    // lse and delta are loaded from a clamped (always valid) row and selected
    // after: loads under a per-lane condition would each be a branch with its
    // own wait, 32 global latencies in a row.  At D = 64 all 32 loads go out
    // together (190 VGPRs); at D = 128 that would take the wave past 256
    // registers, one wave per SIMD, so each is loaded where it is used (242
    // VGPRs, two workgroups per CU).  Cycle model, S = 512 on 8 CUs: D = 64
    // 29,060 cycles together vs 51,594 one by one; D = 128 80,254 one by one
    // vs 91,160 together.
    constexpr bool kStatsTogether = D == 64;
    float lse_q[4][4], delta_q[4][4];
#pragma unroll
    for (int qb = 0; qb < 4; ++qb)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const int q = kTile * qt + 16 * qb + 4 * g + r, row = q < S ? q : S - 1;
        if constexpr (kStatsTogether) lse_q[qb][r] = lse[rows + row], delta_q[qb][r] = delta[rows + row];
      }
#pragma unroll
    for (int qb = 0; qb < 4; ++qb)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const int q = kTile * qt + 16 * qb + 4 * g + r, row = q < S ? q : S - 1;
        const bool live = key_in && q < S && !(causal && my_key > q);
        if constexpr (!kStatsTogether) lse_q[qb][r] = lse[rows + row], delta_q[qb][r] = delta[rows + row];
        const float l2 = lse_q[qb][r] * Consts<D>::kLog2e, dl = delta_q[qb][r];
        const float p = live ? __builtin_amdgcn_exp2f(s[qb][r] * (Consts<D>::kScale * Consts<D>::kLog2e) - l2) : 0.f;
        s[qb][r] = p;
        dp[qb][r] = p * (dp[qb][r] - dl);  // dS
      }
    tl::bf16x8 pb[2], dsb[2];
    pack(s, pb);
    pack(dp, dsb);
#pragma unroll
    for (int db = 0; db < D / 16; ++db)
#pragma unroll
      for (int kc = 0; kc < 2; ++kc) {
        dv[db] = tl::mfma_f32_16x16x32_bf16(gradient_operand<D, Tr>(lds, true, db, i, kc, g), pb[kc], dv[db]);
        dk[db] = tl::mfma_f32_16x16x32_bf16(gradient_operand<D, Tr>(lds, false, db, i, kc, g), dsb[kc], dk[db]);
      }
  }
  if (!key_in) return;
#pragma unroll
  for (int db = 0; db < D / 16; ++db) {
    tl::bf16x4 k4, v4;
#pragma unroll
    for (int r = 0; r < 4; ++r) k4[r] = (tl::bf16)(dk[db][r] * Consts<D>::kScale), v4[r] = (tl::bf16)dv[db][r];
    const long at = head + (long)my_key * D + 16 * db + 4 * g;
    *reinterpret_cast<tl::bf16x4*>(dK + at) = k4;
    *reinterpret_cast<tl::bf16x4*>(dV + at) = v4;
  }
}

// dQ of queries q0..q0+63 (the separate pass).
template <int D, bool Tr>
__device__ void query_block(tl::bf16* dQ, const tl::bf16* Q, const tl::bf16* K, const tl::bf16* V, const tl::bf16* dO,
                            const float* lse, const float* delta, int S, int causal, int qblk, unsigned char* lds) {
  const int t = threadIdx.x, wave = t / tl::kWaveSize, lane = (int)tl::lane_id(), i = lane % 16, g = lane / 16;
  const long head = (long)blockIdx.y * S * D, rows = (long)blockIdx.y * S;
  const int my_q = kTile * qblk + 16 * wave + i;
  const bool q_in = my_q < S;
  tl::bf16x8 qf[D / 32], of[D / 32];  // Qᵀ, dOᵀ B operands: lane l holds Q[my_q][32c + 8g..+8]
#pragma unroll
  for (int c = 0; c < D / 32; ++c) {
    const long at = head + (long)my_q * D + 32 * c + 8 * g;
    qf[c] = q_in ? *reinterpret_cast<const tl::bf16x8*>(Q + at) : tl::bf16x8{};
    of[c] = q_in ? *reinterpret_cast<const tl::bf16x8*>(dO + at) : tl::bf16x8{};
  }
  const float l2 = q_in ? lse[rows + my_q] * Consts<D>::kLog2e : 0.f, dl = q_in ? delta[rows + my_q] : 0.f;
  tl::f32x4 dq[D / 16];  // dQᵀ: lane l holds d = 16db + 4g..+4 of my_q
#pragma unroll
  for (int db = 0; db < D / 16; ++db) dq[db] = tl::f32x4{0.f, 0.f, 0.f, 0.f};

  const int all = (S + kTile - 1) / kTile, tiles = causal ? qblk + 1 : all;
  Staging<D, Tr> st;
  st.load(K, V, head, 0, S, t);
  for (int kt = 0; kt < tiles; ++kt) {
    __syncthreads();
    st.store(lds, false, t);
    __syncthreads();
    if (kt + 1 < tiles) st.load(K, V, head, kTile * (kt + 1), S, t);
    tl::f32x4 s[4], dp[4];
#pragma unroll
    for (int nb = 0; nb < 4; ++nb) {
      s[nb] = dp[nb] = tl::f32x4{0.f, 0.f, 0.f, 0.f};
#pragma unroll
      for (int c = 0; c < D / 32; ++c) {
        s[nb] = tl::mfma_f32_16x16x32_bf16(row_operand<D, Tr>(lds, false, 16 * nb + i, c, g), qf[c], s[nb]);
        dp[nb] = tl::mfma_f32_16x16x32_bf16(row_operand<D, Tr>(lds, true, 16 * nb + i, c, g), of[c], dp[nb]);
      }
    }
    // Sᵀ and dPᵀ: lane l holds key 64kt + 16nb + 4g + r of query my_q.
#pragma unroll
    for (int nb = 0; nb < 4; ++nb)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const int key = kTile * kt + 16 * nb + 4 * g + r;
        const bool live = q_in && key < S && !(causal && key > my_q);
        const float p = live ? __builtin_amdgcn_exp2f(s[nb][r] * (Consts<D>::kScale * Consts<D>::kLog2e) - l2) : 0.f;
        dp[nb][r] = p * (dp[nb][r] - dl);  // dSᵀ
      }
    tl::bf16x8 dsb[2];
    pack(dp, dsb);
#pragma unroll
    for (int db = 0; db < D / 16; ++db)
#pragma unroll
      for (int kc = 0; kc < 2; ++kc)
        dq[db] = tl::mfma_f32_16x16x32_bf16(gradient_operand<D, Tr>(lds, false, db, i, kc, g), dsb[kc], dq[db]);
  }
  if (!q_in) return;
#pragma unroll
  for (int db = 0; db < D / 16; ++db) {
    tl::bf16x4 q4;
#pragma unroll
    for (int r = 0; r < 4; ++r) q4[r] = (tl::bf16)(dq[db][r] * Consts<D>::kScale);
    *reinterpret_cast<tl::bf16x4*>(dQ + head + (long)my_q * D + 16 * db + 4 * g) = q4;
  }
}

template <int D, bool Tr = false>
__device__ void backward(tl::bf16* dQ, tl::bf16* dK, tl::bf16* dV, const tl::bf16* Q, const tl::bf16* K,
                         const tl::bf16* V, const tl::bf16* dO, const float* lse, const float* delta, int S, int causal) {
  __shared__ __attribute__((aligned(16))) unsigned char lds[Lds<D, Tr>::kBytes];
  const int key_blocks = (S + kTile - 1) / kTile;
  if ((int)blockIdx.x < key_blocks)
    key_block<D, Tr>(dK, dV, Q, K, V, dO, lse, delta, S, causal, blockIdx.x, lds);
  else
    query_block<D, Tr>(dQ, Q, K, V, dO, lse, delta, S, causal, blockIdx.x - key_blocks, lds);
}

// delta of rows row0..row0+15: 16 threads per row, D/16 elements each, summed
// in f32 and reduced across the 16 lanes by shuffles.
template <int D>
__device__ void preprocess(float* delta, const tl::bf16* O, const tl::bf16* dO, int rows) {
  const int t = threadIdx.x, row = blockIdx.x * 16 + t / 16, part = t % 16;
  float sum = 0.f;
  if (row < rows) {
#pragma unroll
    for (int e = 0; e < D / 16; ++e) {
      const long at = (long)row * D + part * (D / 16) + e;
      sum += (float)O[at] * (float)dO[at];
    }
  }
#pragma unroll
  for (int m = 1; m < 16; m <<= 1) sum += tl::shuffle_xor(sum, m);
  if (row < rows && part == 0) delta[row] = sum;
}

}  // namespace attention_bwd

#define TILELAB_ATTENTION_BWD(D)                                                                                       \
  extern "C" __global__ __launch_bounds__(attention_bwd::kThreads) void attention_bwd_prep_d##D(                      \
      float* __restrict__ delta, const tl::bf16* __restrict__ O, const tl::bf16* __restrict__ dO,                     \
      int rows TL_WAVE_STAMPS_PARAM) {                                                                                 \
    TL_WAVE_STAMPS();                                                                                                  \
    attention_bwd::preprocess<D>(delta, O, dO, rows);                                                                 \
  }                                                                                                                    \
  extern "C" __global__ __launch_bounds__(attention_bwd::kThreads) void attention_bwd_d##D(                           \
      tl::bf16* __restrict__ dQ, tl::bf16* __restrict__ dK, tl::bf16* __restrict__ dV, const tl::bf16* __restrict__ Q, \
      const tl::bf16* __restrict__ K, const tl::bf16* __restrict__ V, const tl::bf16* __restrict__ dO,                 \
      const float* __restrict__ lse, const float* __restrict__ delta, int S, int causal TL_WAVE_STAMPS_PARAM) {       \
    TL_WAVE_STAMPS();                                                                                                  \
    attention_bwd::backward<D>(dQ, dK, dV, Q, K, V, dO, lse, delta, S, causal);                                       \
  }

TILELAB_ATTENTION_BWD(64)
TILELAB_ATTENTION_BWD(128)

// gfx950: the same pass with the transposing reads (Lds<D, true>); its
// preprocessing kernel is attention_bwd_prep_dD.
#if defined(__gfx950__)
#define TILELAB_ATTENTION_BWD_TR(D)                                                                                    \
  extern "C" __global__ __launch_bounds__(attention_bwd::kThreads) void attention_bwd_tr_d##D(                        \
      tl::bf16* __restrict__ dQ, tl::bf16* __restrict__ dK, tl::bf16* __restrict__ dV, const tl::bf16* __restrict__ Q, \
      const tl::bf16* __restrict__ K, const tl::bf16* __restrict__ V, const tl::bf16* __restrict__ dO,                 \
      const float* __restrict__ lse, const float* __restrict__ delta, int S, int causal TL_WAVE_STAMPS_PARAM) {       \
    TL_WAVE_STAMPS();                                                                                                  \
    attention_bwd::backward<D, true>(dQ, dK, dV, Q, K, V, dO, lse, delta, S, causal);                                 \
  }
TILELAB_ATTENTION_BWD_TR(64)
TILELAB_ATTENTION_BWD_TR(128)
#endif
