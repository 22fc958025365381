// Matrix instructions (MFMA) and the AGPR moves.
//
// Operand layouts are the ISA's (arch-facts, "Operand layouts"): for an
// R x R x K instruction with R = 16 or 32, G = 64 / R lane groups and
// P = K / G values per lane, lane l holds A[l % R][P*(l/R) + p] and
// B[P*(l/R) + p][l % R] for p = 0..P-1 (packed low half first); D/C element
// (i, j) is in lane j + R*((i/4) % G), register (i % 4) + 4*(i / (4*G)).
//
// Arithmetic: each output is C plus the K products added one at a time in k
// order, each product and add rounded once to nearest even (a fused
// multiply-add, on every host: the AVX-512 path's FMA, std::fma elsewhere).
// Products of bf16, f16, FP8 and FP4 values are exact in f32, so this is also
// multiply-then-add, except where a block-scaled product leaves f32's normal
// range.  The hardware's internal summation order is not documented [?];
// results can differ from it in the last bits of large-K sums.
// GCC 12's AVX-512 intrinsics warn about their own _mm512_undefined results.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "sim/emu/float_bits.hpp"
#include "sim/emu/mx_decode.hpp"
#include "sim/emu/semantics.hpp"

namespace tilelab::emu {
namespace {

using u32 = std::uint32_t;

const Operand& O(const Op& op, int i) { return op.t.ops[static_cast<std::size_t>(i)]; }

enum class Elem { bf16, f16, fp8, bf8 };  // fp8: E4M3, bf8: E5M2

constexpr int bits(Elem e) { return e == Elem::fp8 || e == Elem::bf8 ? 8 : 16; }

// Element `idx` of a 32-bit register holding 32 / bits(E) elements, low first.
template <Elem E>
float element(u32 word, int idx, bool ocp_fp8) {
  if constexpr (bits(E) == 16) {
    auto h = static_cast<std::uint16_t>(word >> (16 * idx));
    return E == Elem::bf16 ? bf16_to_f32(h) : f16_to_f32(h);
  } else {
    u32 code = (word >> (8 * idx)) & 0xff;
    if (ocp_fp8) return decode_f8f6f4(E == Elem::fp8 ? 0 : 1, code);
    return decode_fp8_fnuz(E == Elem::bf8, code);
  }
}

// The rows of an R x R output (R = 16 or 32: one or two 16-wide vectors) in
// AVX-512 registers: the same fused multiply-add per k as the portable loop.
// (Written as an FMA: GCC contracted the multiply and add it was written as
// into one, so that hosts with and without AVX-512 rounded differently.)
template <int R, int K>
__attribute__((target("avx512f"))) void multiply_avx512(const float* __restrict at, const float* __restrict b,
                                                         float* __restrict acc) {
  constexpr int V = R / 16;
  // Eight rows at a time: 8 x V independent add chains hide the add latency.
  for (int i0 = 0; i0 < R; i0 += 8) {
    __m512 row[8][V];
    for (int r = 0; r < 8; ++r)
      for (int v = 0; v < V; ++v) row[r][v] = _mm512_loadu_ps(acc + R * (i0 + r) + 16 * v);
    for (int k = 0; k < K; ++k) {
      __m512 bk[V];
      for (int v = 0; v < V; ++v) bk[v] = _mm512_loadu_ps(b + R * k + 16 * v);
      for (int r = 0; r < 8; ++r) {
        const __m512 x = _mm512_set1_ps(at[k * R + i0 + r]);
        for (int v = 0; v < V; ++v) row[r][v] = _mm512_fmadd_ps(x, bk[v], row[r][v]);
      }
    }
    for (int r = 0; r < 8; ++r)
      for (int v = 0; v < V; ++v) _mm512_storeu_ps(acc + R * (i0 + r) + 16 * v, row[r][v]);
  }
}

template <int R, int K>
void multiply(const float* __restrict at, const float* __restrict b, float* __restrict acc) {
  if constexpr (R == 16 || R == 32) {
    if (host_has_avx512f()) return multiply_avx512<R, K>(at, b, acc);
  }
  for (int i = 0; i < R; ++i)
    for (int k = 0; k < K; ++k) {
      const float x = at[k * R + i];
      for (int j = 0; j < R; ++j) acc[i * R + j] = std::fma(x, b[k * R + j], acc[i * R + j]);
    }
}

// ---- the dense layout, shared by the float and integer forms ----
// A and B: lane R*g + x holds row x of A (column x of B), elements k = P*g
// .. P*g + P-1 (P = K / G, G = 64 / R), PerReg of them to a 32-bit register,
// low first; into at[k][row] and b[k][col]: lane group g's R consecutive
// lanes fill one contiguous row, so the copies vectorise.  C and D: register
// r, lane R*g + j holds element (4*G*(r/4) + 4*g + r%4, j).

// Refuses what the dense forms do not implement.
void refuse_broadcast(const Op& op) {
  const Modifiers& m = op.t.mods;
  if (m.cbsz || m.abid || m.blgp)
    throw EmuError("MFMA broadcast modifiers (cbsz/abid/blgp) are not implemented");
}

template <int R, int K, int PerReg, class T, class DecodeA, class DecodeB>
void load_dense_ab(Wave& w, const Op& op, T (&at)[K][R], T (&b)[K][R], DecodeA decode_a, DecodeB decode_b) {
  constexpr int G = 64 / R, P = K / G;
  for (int p = 0; p < P; ++p) {
    const u32 *ra = vector_reg(w, O(op, 1), p / PerReg), *rb = vector_reg(w, O(op, 2), p / PerReg);
    for (int g = 0; g < G; ++g)
      for (int x = 0; x < R; ++x) {
        at[P * g + p][x] = decode_a(ra[R * g + x], p % PerReg);
        b[P * g + p][x] = decode_b(rb[R * g + x], p % PerReg);
      }
  }
}

template <int R, class T, class FromBits>
void load_dense_c(Wave& w, const Op& op, T (&acc)[R][R], FromBits from_bits) {
  constexpr int G = 64 / R, Regs = R * R / kLanes;
  const Operand& C = O(op, 3);
  for (int r = 0; r < Regs; ++r) {
    const u32* c = C.loc == Loc::Const ? nullptr : vector_reg(w, C, r);
    const u32 constant = C.loc == Loc::Const ? C.bits32() : 0;
    for (int g = 0; g < G; ++g)
      for (int j = 0; j < R; ++j) acc[4 * G * (r / 4) + 4 * g + r % 4][j] = from_bits(c ? c[R * g + j] : constant);
  }
}

template <int R, class T, class ToBits>
void store_dense_d(Wave& w, const Op& op, const T (&acc)[R][R], ToBits to_bits) {
  constexpr int G = 64 / R, Regs = R * R / kLanes;
  for (int r = 0; r < Regs; ++r) {
    u32* d = vector_reg(w, O(op, 0), r);
    for (int g = 0; g < G; ++g)
      for (int j = 0; j < R; ++j) d[R * g + j] = to_bits(acc[4 * G * (r / 4) + 4 * g + r % 4][j]);
  }
}

template <int R, int K, Elem EA, Elem EB>
void mfma(Wave& w, const Op& op, Env& env) {
  static_assert(bits(EA) == bits(EB));
  refuse_broadcast(op);
  float at[K][R], b[K][R], acc[R][R];
  const bool ocp = env.ocp_fp8;
  load_dense_ab<R, K, 32 / bits(EA)>(
      w, op, at, b, [ocp](u32 word, int i) { return element<EA>(word, i, ocp); },
      [ocp](u32 word, int i) { return element<EB>(word, i, ocp); });
  load_dense_c<R>(w, op, acc, [](u32 x) { return as_f32(x); });
  multiply<R, K>(&at[0][0], &b[0][0], &acc[0][0]);
  store_dense_d<R>(w, op, acc, [](float x) { return bits_of(x); });
}

// ---- v_mfma_i32_16x16x32_i8 ----
// The dense layout above with signed 8-bit elements and 32-bit integer sums
// ([M] AMD's matrix instruction calculator for CDNA3, as reported: A and B
// row = lane % 16, k = 8 * (lane / 16) + byte, 2 VGPRs; C/D row =
// 4 * (lane / 16) + register, column = lane % 16; [O] ISA §7.1.4's dense
// rule gives the same).  Sums wrap modulo 2^32 ([I]: no source says whether
// the accumulation saturates; no K the suite or AMD's kernels use comes near
// it: 127 x 127 x 65536 < 2^31).  Broadcast modifiers are refused with one
// line, as for every dense form: none of the code the emulator runs uses them.
template <int R, int K>
void mfma_i8(Wave& w, const Op& op, Env&) {
  refuse_broadcast(op);
  std::int32_t at[K][R], b[K][R];
  std::int64_t acc[R][R];
  auto byte = [](u32 word, int i) { return static_cast<std::int32_t>(static_cast<std::int8_t>(word >> (8 * i))); };
  load_dense_ab<R, K, 4>(w, op, at, b, byte, byte);
  load_dense_c<R>(w, op, acc, [](u32 x) { return static_cast<std::int64_t>(static_cast<std::int32_t>(x)); });
  for (int i = 0; i < R; ++i)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < R; ++j) acc[i][j] += static_cast<std::int64_t>(at[k][i]) * b[k][j];
  store_dense_d<R>(w, op, acc, [](std::int64_t x) { return static_cast<u32>(x); });
}

// ---- v_mfma{,_scale}_f32_16x16x128_f8f6f4 and _32x32x64_f8f6f4 (gfx950) ----
// Layouts (arch-facts; CDNA4 ISA §7.1.4, §7.1.5.1), for R = 16 or 32 rows and
// K = 2048 / R: one operand (A or B) of R rows x K into t[k][row].  Lane l
// (g = l/R) holds row l%R; FP8: register bytes 0-15 are k = 16g..+15, bytes
// 16-31 k = K/2+16g..+15; FP4: nibble n (low first) is k = 32g + n.  The
// scale of (row, k) is byte `sel` of the scale VGPR in lane row + R*(k/32);
// without a scale operand (the unscaled forms) it is 1.  Element decoding in
// mx_decode (the values of float_bits.hpp).  FP6 (formats 2, 3) is refused
// with one line (mx_decode.hpp says why).
// Every E8M0 scale's value, from decode_e8m0 once (an ldexp per scale made a
// scaled MFMA some 50 µs to emulate).
struct ScaleTable {
  float e8m0[256];
  ScaleTable() {
    for (std::uint32_t c = 0; c < 256; ++c) e8m0[c] = decode_e8m0(c);
  }
};
const ScaleTable& scale_table() {
  static const ScaleTable t;
  return t;
}

template <int R>
void load_scaled(Wave& w, const Operand& src, int format, const Operand* scale, int sel, float (&t)[2048 / R][R]) {
  constexpr int K = 2048 / R;
  if (format != 0 && format != 1 && format != 4)
    throw EmuError("f8f6f4 format " + std::to_string(format) + " (FP6) is not implemented");
  const ScaleTable& d = scale_table();
  float factor[K / 32][R];  // the scale of (K-block, row): lane row + R * block
  if (scale) {
    const u32* sv = vector_reg(w, *scale);
    for (int blk = 0; blk < K / 32; ++blk)
      for (int row = 0; row < R; ++row) factor[blk][row] = d.e8m0[(sv[row + R * blk] >> (8 * sel)) & 0xff];
  }
  const u32* reg[8];
  for (int r = 0; r < 8; ++r) reg[r] = r < (format == 4 ? 4 : 8) ? vector_reg(w, src, r) : nullptr;
  prefetch_registers(w, src, format == 4 ? 4 : 8);
  // Lane group g holds rows 0..R-1 (lanes R*g ..): its slot s is k = 32g + s
  // (FP4), or 16g + s then K/2 + 16g + s - 16 (FP8).
  const MxFormat f = static_cast<MxFormat>(format);  // 0, 1 or 4 (checked above)
  for (int g = 0; g < kLanes / R; ++g) {
    const u32* group[8];
    int k[32];
    for (int r = 0; r < 8; ++r) group[r] = reg[r] ? reg[r] + R * g : nullptr;
    for (int slot = 0; slot < 32; ++slot)
      k[slot] = format == 4 ? 32 * g + slot : slot < 16 ? 16 * g + slot : K / 2 + 16 * g + (slot - 16);
    decode_mx_slots(f, group, R, k, scale ? &factor[0][0] : nullptr, &t[0][0]);
  }
}

// Operands: D, A, B, C, scale A, scale B; the scale byte of A is op_sel[0] +
// 2*op_sel_hi[0], of B op_sel[1] + 2*op_sel_hi[1] ([O] arch-facts: ISA §7.2.1
// and LLVM's encoding; gemm_mx*_32x32 use bytes 0 and 2, and a test selects
// each of the four).
// The unscaled form (D, A, B, C) is the same product with every scale 1.
// C/D as every dense MFMA here: element (4G(r/4) + 4g + r%4, j) in register r,
// lane Rg + j (G = 64/R).
template <int R, bool Scaled>
void mfma_f8f6f4(Wave& w, const Op& op, Env&) {
  constexpr int K = 2048 / R, G = kLanes / R, Regs = R * R / kLanes;
  const Modifiers& m = op.t.mods;
  static thread_local float at[K][R], b[K][R], acc[R][R];
  load_scaled<R>(w, O(op, 1), m.cbsz, Scaled ? &O(op, 4) : nullptr, m.op_sel[0] + 2 * m.op_sel_hi[0], at);
  load_scaled<R>(w, O(op, 2), m.blgp, Scaled ? &O(op, 5) : nullptr, m.op_sel[1] + 2 * m.op_sel_hi[1], b);
  const Operand &C = O(op, 3), &D = O(op, 0);
  for (int r = 0; r < Regs; ++r) {
    const u32* c = C.loc == Loc::Const ? nullptr : vector_reg(w, C, r);
    for (int g = 0; g < G; ++g)
      for (int j = 0; j < R; ++j) acc[4 * G * (r / 4) + 4 * g + r % 4][j] = c ? as_f32(c[R * g + j]) : as_f32(C.bits32());
  }
  multiply<R, K>(&at[0][0], &b[0][0], &acc[0][0]);
  for (int r = 0; r < Regs; ++r) {
    u32* d = vector_reg(w, D, r);
    for (int g = 0; g < G; ++g)
      for (int j = 0; j < R; ++j) d[R * g + j] = bits_of(acc[4 * G * (r / 4) + 4 * g + r % 4][j]);
  }
}

void accvgpr_move(Wave& w, const Op& op, Env&) {
  u32 tmp[kLanes];
  const u32* s = lanes_u32(w, O(op, 1), tmp);
  u32* d = vector_reg(w, O(op, 0));
  for (std::uint64_t ex = w.exec; ex; ex &= ex - 1) d[std::countr_zero(ex)] = s[std::countr_zero(ex)];
}

}  // namespace

void add_mfma_ops(HandlerTable& t) {
  using E = Elem;
  t["v_mfma_f32_16x16x32_bf16"] = mfma<16, 32, E::bf16, E::bf16>;  // gfx950
  t["v_mfma_f32_16x16x16_bf16"] = mfma<16, 16, E::bf16, E::bf16>;  // gfx90a+ (the _1k form)
  t["v_mfma_f32_32x32x16_bf16"] = mfma<32, 16, E::bf16, E::bf16>;  // gfx950
  t["v_mfma_f32_32x32x8_bf16"] = mfma<32, 8, E::bf16, E::bf16>;
  t["v_mfma_f32_16x16x32_f16"] = mfma<16, 32, E::f16, E::f16>;
  t["v_mfma_f32_16x16x16_f16"] = mfma<16, 16, E::f16, E::f16>;
  t["v_mfma_f32_32x32x16_f16"] = mfma<32, 16, E::f16, E::f16>;
  t["v_mfma_f32_32x32x8_f16"] = mfma<32, 8, E::f16, E::f16>;
  // FP8 (gfx942: FNUZ formats, gfx950: OCP): 8 values per lane in 2 VGPRs.
  t["v_mfma_f32_16x16x32_fp8_fp8"] = mfma<16, 32, E::fp8, E::fp8>;
  t["v_mfma_f32_16x16x32_fp8_bf8"] = mfma<16, 32, E::fp8, E::bf8>;
  t["v_mfma_f32_16x16x32_bf8_fp8"] = mfma<16, 32, E::bf8, E::fp8>;
  t["v_mfma_f32_16x16x32_bf8_bf8"] = mfma<16, 32, E::bf8, E::bf8>;
  t["v_mfma_f32_32x32x16_fp8_fp8"] = mfma<32, 16, E::fp8, E::fp8>;
  t["v_mfma_f32_32x32x16_fp8_bf8"] = mfma<32, 16, E::fp8, E::bf8>;
  t["v_mfma_f32_32x32x16_bf8_fp8"] = mfma<32, 16, E::bf8, E::fp8>;
  t["v_mfma_f32_32x32x16_bf8_bf8"] = mfma<32, 16, E::bf8, E::bf8>;
  t["v_mfma_i32_16x16x32_i8"] = mfma_i8<16, 32>;
  t["v_mfma_scale_f32_16x16x128_f8f6f4"] = mfma_f8f6f4<16, true>;
  t["v_mfma_f32_16x16x128_f8f6f4"] = mfma_f8f6f4<16, false>;  // gfx950, unscaled
  t["v_mfma_scale_f32_32x32x64_f8f6f4"] = mfma_f8f6f4<32, true>;
  t["v_mfma_f32_32x32x64_f8f6f4"] = mfma_f8f6f4<32, false>;
  t["v_accvgpr_write_b32"] = accvgpr_move;
  t["v_accvgpr_read_b32"] = accvgpr_move;
  t["v_accvgpr_mov_b32"] = accvgpr_move;
}

}  // namespace tilelab::emu
