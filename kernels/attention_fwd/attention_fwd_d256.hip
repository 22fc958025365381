// Fused attention forward at head dimension 256, bf16, with the head
// dimension split across waves: O = softmax(Q·Kᵀ / 16) · V per head, causal
// or not, fp32 online softmax, the log-sum-exp of each query row (natural
// log).  Q, K, V, O: [BH][S][256] bf16 row-major; lse: [BH][S] f32.
//
// Why the split.  attention_fwd_d64/_d128 give each wave 16 query rows with
// the whole of D: at D = 256 that is 64 accumulator VGPRs for Oᵀ and 32 for
// the Qᵀ fragments per lane.  Here the two waves of a pair own the same 16
// query rows and half of D each, so each holds 32 accumulator VGPRs (Oᵀ for
// d = 128h..128h+127) and 16 for its half of Qᵀ; the registers saved hold
// the next K or V tile in flight (below).
//
// Workgroup: 64 query rows of one head, 512 threads = 8 waves.  Wave w is in
// group w/4 (A or B, the ping-pong), row block rb = 2(w/4) + (w%4)/2 (query
// rows 16rb..+16) and D half h = w%2; its partner w^1 has the same rows and
// the other half.  KV tiles of 32 keys stream through LDS: K row-major
// (32 x 256) and V transposed (Vt: 256 x 32), two stages each.
//
// The split, phase by phase (every phase ends at a workgroup barrier; j is
// the KV tile):
//   MFMA phase of tile j (s_setprio 1):
//     Oᵀ_h += Vt_{j-1}[d in half h] · Pᵀ_{j-1}     (8 MFMAs: only this half's d)
//     partial Sᵀ_j,h = K_j[:, half h] · Qᵀ[half h] (8 MFMAs: this half's D terms)
//     the partial goes to LDS (the wave's exchange slot, ds_write_b128)
//   softmax phase of tile j (the next phase, after the barrier):
//     Sᵀ_j = own partial + the partner's (ds_read_b128 of its slot); both
//     waves add the same two f32 numbers, so both hold the same Sᵀ bit for bit
//     and compute the same max, sum and Pᵀ; nothing else crosses between them.
// So the head dimension is split in time through LDS for Sᵀ (each half of the
// D sum is formed by a different wave and meets in LDS one phase later) and
// across waves for Oᵀ (each wave only ever accumulates its half).  No MFMA is
// done twice: per tile and wave 8 for Sᵀ and 8 for Oᵀ, as in the unsplit
// design per 16 rows and 128 columns of D.  The softmax (VALU) is done by
// both waves of a pair; it overlaps the other group's MFMAs.
//
// The ping-pong is attention_fwd's: waves w and w+4 share a SIMD; group A
// (waves 0-3) and group B (4-7) run the same program one phase apart:
//   phase 2j    A: MFMA phase of tile j          B: softmax of tile j-1; stage V_j
//   phase 2j+1  A: softmax of tile j; stage K_{j+1}   B: MFMA phase of tile j
// A wave's exchange slot is written in its MFMA phase, read by its partner in
// the next phase, and written again two phases later.
//
// LDS (spec.cpp): K stage row-major 32 x 256 composed with Sw<5,3,5> (16-byte
// unit u of key row n at u ^ n); Vt stage 256 x 32 composed with Sw<2,3,4>
// (8-byte unit k of row d at k ^ 2((d/4)%4)); exchange slots 8 waves x 2 KiB,
// lane l's 16 bytes of 16-key block nb at 1024nb + 16l.  80 KiB: gfx950 only
// (gfx942 has 64 KiB, which the double-buffered K and Vt stages alone fill).
// Registers: 194 VGPRs, one workgroup (2 waves per SIMD) per CU.  The
// staging wave issues its four 16-byte global loads before its softmax and
// writes them to LDS after it, so their latency hides behind the softmax.
// Held to 128 VGPRs (amdgpu_waves_per_eu(4), two workgroups per CU) the
// kernel spills those registers; with the loads one at a time instead it
// fits, but waits for each: the cycle model measured that build at 493,548
// cycles against this one's 416,873 (BH = 2, S = 1024 on 8 CUs: 4
// workgroups per CU) and 119,137 against 54,243 (BH = 1, S = 512 on 8 CUs).
// Shapes: S % 64 == 0; causal masks key > query (top-left aligned).
#include "kernels/common/tilelab_hip.hpp"

#if defined(__gfx950__)
namespace attention_d256 {

constexpr int D = 256, kHalf = 128;
constexpr int kThreads = 512, kGroupThreads = 256;
constexpr int kTileQ = 64, kTileKV = 32;

struct Lds {
  static constexpr int kKBytes = kTileKV * D * 2;   // one K stage: 16 KiB
  static constexpr int kVBytes = D * kTileKV * 2;   // one Vt stage: 16 KiB
  static constexpr int kSlotBytes = 2 * 64 * 16;    // a wave's partial Sᵀ: 2 blocks x 64 lanes x f32x4
  static constexpr int kVtBase = 2 * kKBytes, kSlotBase = kVtBase + 2 * kVBytes;
  static constexpr int kBytes = kSlotBase + 8 * kSlotBytes;
  __device__ static int k_offset(int stage, int n, int u) { return stage * kKBytes + n * D * 2 + ((u ^ n) << 4); }
  // Key n of row d (n a multiple of 4 for the 8-byte reads).
  __device__ static int vt_offset(int stage, int d, int n) {
    return kVtBase + stage * kVBytes + d * (kTileKV * 2) + (((n >> 2) ^ (2 * ((d >> 2) & 3))) << 3) + ((n & 3) << 1);
  }
  __device__ static int slot_offset(int wave, int nb, int lane) { return kSlotBase + wave * kSlotBytes + nb * 1024 + lane * 16; }
};

__device__ void attention(tl::bf16* __restrict__ O, float* __restrict__ lse, const tl::bf16* __restrict__ Q,
                          const tl::bf16* __restrict__ K, const tl::bf16* __restrict__ V, int S, int causal) {
  __shared__ __attribute__((aligned(16))) unsigned char lds[Lds::kBytes];
  const int t = threadIdx.x, wave = t / tl::kWaveSize, lane = (int)tl::lane_id();
  const int group = wave / 4, gt = t % kGroupThreads;
  const int rb = 2 * group + (wave % 4) / 2, h = wave % 2, partner = wave ^ 1;
  const long head = (long)blockIdx.y * S * D;
  const int q_block = blockIdx.x * kTileQ;
  const int i = lane % 16, g = lane / 16;
  const int my_q = q_block + 16 * rb + i;
  const float scale_log2 = 0.0625f * 1.4426950408889634f;  // log2(e)/sqrt(256)

  tl::bf16x8 qf[kHalf / 32];  // Qᵀ fragments of half h: lane l holds Q[my_q][128h + 32c + 8g .. +8]
#pragma unroll
  for (int c = 0; c < kHalf / 32; ++c)
    qf[c] = *reinterpret_cast<const tl::bf16x8*>(Q + head + (long)my_q * D + kHalf * h + 32 * c + 8 * g);

  const int kv_end = causal ? (S < q_block + kTileQ ? S : q_block + kTileQ) : S;
  const int tiles = kv_end / kTileKV;

  // Staging by one group (256 threads), in two halves so the global loads'
  // latency hides behind the softmax: load() issues a thread's four 16-byte
  // loads into registers before the softmax, store() writes them after it.
  // K chunk c is row c/32, unit c%32; V chunk c is key c%32, elements
  // 8(c/32)..+8, scattered down Vt's column.
  constexpr int kChunks = kTileKV * D / 8 / kGroupThreads;  // 4 per thread
  tl::u32x4 staged[kChunks];
  auto load_k = [&](int tile) {
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const int c = gt + k * kGroupThreads, n = c / (D / 8), u = c % (D / 8);
      staged[k] = *reinterpret_cast<const tl::u32x4*>(K + head + (long)(tile * kTileKV + n) * D + 8 * u);
    }
  };
  auto store_k = [&](int stage) {
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const int c = gt + k * kGroupThreads, n = c / (D / 8), u = c % (D / 8);
      *reinterpret_cast<tl::u32x4*>(lds + Lds::k_offset(stage, n, u)) = staged[k];
    }
  };
  auto load_v = [&](int tile) {
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const int c = gt + k * kGroupThreads, n = c % kTileKV, d0 = 8 * (c / kTileKV);
      staged[k] = *reinterpret_cast<const tl::u32x4*>(V + head + (long)(tile * kTileKV + n) * D + d0);
    }
  };
  auto store_v = [&](int stage) {
#pragma unroll
    for (int k = 0; k < kChunks; ++k) {
      const int c = gt + k * kGroupThreads, n = c % kTileKV, d0 = 8 * (c / kTileKV);
      const tl::bf16x8 v = __builtin_bit_cast(tl::bf16x8, staged[k]);
#pragma unroll
      for (int e = 0; e < 8; ++e) *reinterpret_cast<tl::bf16*>(lds + Lds::vt_offset(stage, d0 + e, n)) = v[e];
    }
  };

  tl::f32x4 o[kHalf / 16];  // Oᵀ of half h: lane l holds O[my_q][128h + 16db + 4g .. +4]
#pragma unroll
  for (int db = 0; db < kHalf / 16; ++db) o[db] = tl::f32x4{0.f, 0.f, 0.f, 0.f};
  tl::f32x4 s[2];  // Sᵀ (partial, then whole): lane l holds keys 16nb + 4g .. +4 of its query
  tl::bf16x8 p;    // Pᵀ of the 32 keys
  float m = -__builtin_inff(), l = 0.f;

  auto mfma_phase = [&](int j) {
    tl::set_priority<1>();
    if (j > 0) {
      const int stage = (j - 1) & 1, n0 = 4 * g;
#pragma unroll
      for (int db = 0; db < kHalf / 16; ++db) {
        const int d = kHalf * h + 16 * db + i;
        const tl::u32x2 lo = *reinterpret_cast<const tl::u32x2*>(lds + Lds::vt_offset(stage, d, n0));
        const tl::u32x2 hi = *reinterpret_cast<const tl::u32x2*>(lds + Lds::vt_offset(stage, d, n0 + 16));
        const tl::u32x4 a = {lo[0], lo[1], hi[0], hi[1]};
        o[db] = tl::mfma_f32_16x16x32_bf16(__builtin_bit_cast(tl::bf16x8, a), p, o[db]);
      }
    }
    if (j < tiles) {
      const int stage = j & 1;
#pragma unroll
      for (int nb = 0; nb < 2; ++nb) {
        s[nb] = tl::f32x4{0.f, 0.f, 0.f, 0.f};
#pragma unroll
        for (int c = 0; c < kHalf / 32; ++c) {
          const tl::bf16x8 kf =
              *reinterpret_cast<const tl::bf16x8*>(lds + Lds::k_offset(stage, 16 * nb + i, (kHalf / 8) * h + 4 * c + g));
          s[nb] = tl::mfma_f32_16x16x32_bf16(kf, qf[c], s[nb]);
        }
        *reinterpret_cast<tl::f32x4*>(lds + Lds::slot_offset(wave, nb, lane)) = s[nb];
      }
    }
    tl::set_priority<0>();
  };

  auto softmax_phase = [&](int j) {
#pragma unroll
    for (int nb = 0; nb < 2; ++nb) {
      const tl::f32x4 other = *reinterpret_cast<const tl::f32x4*>(lds + Lds::slot_offset(partner, nb, lane));
      s[nb] = h == 0 ? s[nb] + other : other + s[nb];  // the same additions in both waves: same bits
    }
    float x[8], tile_max = -__builtin_inff();
#pragma unroll
    for (int nb = 0; nb < 2; ++nb)
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        const int key = j * kTileKV + 16 * nb + 4 * g + r;
        float v = s[nb][r] * scale_log2;
        if (causal && key > my_q) v = -__builtin_inff();
        x[4 * nb + r] = v;
        tile_max = __builtin_fmaxf(tile_max, v);
      }
    tile_max = __builtin_fmaxf(tile_max, tl::shuffle_xor(tile_max, 16));
    tile_max = __builtin_fmaxf(tile_max, tl::shuffle_xor(tile_max, 32));
    const float m_new = __builtin_fmaxf(m, tile_max);
    const float m_use = m_new == -__builtin_inff() ? 0.f : m_new;
    const float alpha = __builtin_amdgcn_exp2f(m - m_use);
    float sum = 0.f;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      x[k] = __builtin_amdgcn_exp2f(x[k] - m_use);
      sum += x[k];
    }
    sum += tl::shuffle_xor(sum, 16);
    sum += tl::shuffle_xor(sum, 32);
    l = l * alpha + sum;
    m = m_new;
#pragma unroll
    for (int db = 0; db < kHalf / 16; ++db) o[db] *= alpha;
#pragma unroll
    for (int q = 0; q < 8; ++q) p[q] = (tl::bf16)x[q];
  };

  if (group == 0) {
    load_k(0);
    store_k(0);
  }
  __syncthreads();
  for (int j = 0; j <= tiles; ++j) {
    // phase 2j
    if (group == 0) {
      mfma_phase(j);
    } else {
      if (j < tiles) load_v(j);
      if (j > 0) softmax_phase(j - 1);
      if (j < tiles) store_v(j & 1);
    }
    __syncthreads();
    // phase 2j+1
    if (group == 0) {
      if (j + 1 < tiles) load_k(j + 1);
      if (j < tiles) softmax_phase(j);
      if (j + 1 < tiles) store_k((j + 1) & 1);
    } else {
      mfma_phase(j);
    }
    __syncthreads();
  }

  const float inv_l = 1.f / l;
#pragma unroll
  for (int db = 0; db < kHalf / 16; ++db) {
    tl::bf16x4 out;
#pragma unroll
    for (int r = 0; r < 4; ++r) out[r] = (tl::bf16)(o[db][r] * inv_l);
    *reinterpret_cast<tl::bf16x4*>(O + head + (long)my_q * D + kHalf * h + 16 * db + 4 * g) = out;
  }
  if (h == 0 && g == 0) lse[(long)blockIdx.y * S + my_q] = (m + __builtin_amdgcn_logf(l)) * 0.6931471805599453f;
}

}  // namespace attention_d256

extern "C" __global__ __launch_bounds__(attention_d256::kThreads) void attention_fwd_d256(
    tl::bf16* __restrict__ O, float* __restrict__ lse, const tl::bf16* __restrict__ Q, const tl::bf16* __restrict__ K,
    const tl::bf16* __restrict__ V, int S, int causal TL_WAVE_STAMPS_PARAM) {
  TL_WAVE_STAMPS();
  attention_d256::attention(O, lse, Q, K, V, S, causal);
}
#endif
