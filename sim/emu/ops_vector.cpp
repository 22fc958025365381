// Vector ALU semantics: integer, f32 (IEEE, the kernel's denorm mode),
// packed, conversions, transcendentals, compares and cross-lane moves.
//
// Accuracy of the transcendental ops: v_rcp_f32, v_rsq_f32, v_sqrt_f32,
// v_exp_f32 (2^x) and v_log_f32 (log2 x) are computed in double precision and
// rounded once to f32, i.e. correctly rounded.  The ISA guarantees 1 ULP for
// these (v_rcp/v_rsq/v_exp/v_log), so hardware may differ from the emulator
// in the last bit; everything else here is exact IEEE f32 arithmetic.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>

#include "sim/emu/float_bits.hpp"
#include "sim/emu/semantics.hpp"

namespace tilelab::emu {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i32 = std::int32_t;

const Operand& O(const Op& op, int i) { return op.t.ops[static_cast<std::size_t>(i)]; }

// SDWA source select: the byte/word (zero- or sign-extended) of each lane.
u32 select(u32 x, Sel s, bool sext) {
  switch (s) {
    case Sel::BYTE_0: case Sel::BYTE_1: case Sel::BYTE_2: case Sel::BYTE_3: {
      u32 b = (x >> (8 * static_cast<int>(s))) & 0xff;
      return sext ? static_cast<u32>(static_cast<i32>(static_cast<std::int8_t>(b))) : b;
    }
    case Sel::WORD_0: case Sel::WORD_1: {
      u32 h = (x >> (16 * (static_cast<int>(s) - 4))) & 0xffff;
      return sext ? static_cast<u32>(static_cast<i32>(static_cast<std::int16_t>(h))) : h;
    }
    default: return x;
  }
}

// DPP: the lane whose source 0 lane l reads, or -1 when there is none.
int dpp_source(const Modifiers& m, int l) {
  const int row = l & ~15, in_row = l & 15;
  switch (m.dpp) {
    case Dpp::quad_perm: return (l & ~3) | m.quad_perm[static_cast<std::size_t>(l & 3)];
    case Dpp::row_shl: return in_row + m.dpp_amount < 16 ? l + m.dpp_amount : -1;
    case Dpp::row_shr: return in_row - m.dpp_amount >= 0 ? l - m.dpp_amount : -1;
    case Dpp::row_ror: return row | ((in_row - m.dpp_amount) & 15);
    case Dpp::wave_shl: return l < 63 ? l + 1 : -1;
    case Dpp::wave_shr: return l > 0 ? l - 1 : -1;
    case Dpp::wave_rol: return (l + 1) & 63;
    case Dpp::wave_ror: return (l + 63) & 63;
    case Dpp::row_mirror: return row | (15 - in_row);
    case Dpp::row_half_mirror: return (l & ~7) | (7 - (l & 7));
    case Dpp::row_bcast15: return row ? row - 1 : -1;
    case Dpp::row_bcast31: return l >= 32 ? 31 : -1;
    case Dpp::row_newbcast: return row | m.dpp_amount;
    default: return l;
  }
}

// The lanes a DPP instruction writes: active, in an enabled row and bank, and
// with a valid active source lane (or bound_ctrl, which reads 0 instead).
u64 dpp_written(const Wave& w, const Modifiers& m) {
  u64 lanes = 0;
  for (int l = 0; l < kLanes; ++l) {
    if (!((m.row_mask >> (l / 16)) & 1) || !((m.bank_mask >> ((l / 4) % 4)) & 1)) continue;
    int s = dpp_source(m, l);
    if (m.bound_ctrl || (s >= 0 && ((w.exec >> s) & 1))) lanes |= 1ull << l;
  }
  return lanes & w.exec;
}

// Source i (operand index, sources start at `first`), DPP permutation (source
// 0) and SDWA select applied.
const u32* src(Wave& w, const Op& op, int i, u32* tmp, int first = 1) {
  const Operand& o = O(op, i);
  const u32* p = lanes_u32(w, o, tmp);
  if (op.t.mods.dpp != Dpp::none && i == first) {
    u32 v[kLanes];
    for (int l = 0; l < kLanes; ++l) {
      int s = dpp_source(op.t.mods, l);
      v[l] = s >= 0 && ((w.exec >> s) & 1) ? p[s] : 0;
    }
    std::memcpy(tmp, v, sizeof v);
    return tmp;
  }
  int s = i - first;
  if (!op.t.mods.sdwa || s > 1 || (op.t.mods.src_sel[s] == Sel::DWORD && !o.sext)) return p;
  for (int l = 0; l < kLanes; ++l) tmp[l] = select(p[l], op.t.mods.src_sel[s], o.sext);
  return tmp;
}

// Writes r to the destination's exec lanes, through the SDWA dst select.
void store(Wave& w, const Op& op, const u32* r, int dst = 0) {
  u32* d = vector_reg(w, O(op, dst));
  u64 ex = op.t.mods.dpp == Dpp::none ? w.exec : dpp_written(w, op.t.mods);
  if (!op.t.mods.sdwa || op.t.mods.dst_sel == Sel::DWORD) {
    if (ex == ~0ull) std::memcpy(d, r, sizeof(u32) * kLanes);
    else for (; ex; ex &= ex - 1) { int l = std::countr_zero(ex); d[l] = r[l]; }
    return;
  }
  int s = static_cast<int>(op.t.mods.dst_sel);
  int shift = s < 4 ? 8 * s : 16 * (s - 4);
  u32 mask = (s < 4 ? 0xffu : 0xffffu) << shift;
  for (; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    u32 keep = op.t.mods.dst_preserve ? d[l] & ~mask : 0;
    d[l] = keep | ((r[l] << shift) & mask);
  }
}

// ---- integer ops: D = F(S0, S1, S2) on 32-bit lanes ----
template <auto F, int N>
void vop_int(Wave& w, const Op& op, Env&) {
  u32 t0[kLanes], t1[kLanes], t2[kLanes], r[kLanes];
  const u32* a = src(w, op, 1, t0);
  const u32* b = N > 1 ? src(w, op, 2, t1) : a;
  const u32* c = N > 2 ? src(w, op, 3, t2) : a;
  for (int l = 0; l < kLanes; ++l) r[l] = F(a[l], b[l], c[l]);
  store(w, op, r);
}

// ---- f32 ops: sources with |x| and -x, the denorm mode, clamp and omod ----
float in_f32(u32 b, bool abs, bool neg, int mode) {
  if (!(mode & 1)) b = flush32(b);
  if (abs) b &= 0x7fffffffu;
  if (neg) b ^= 0x80000000u;
  return as_f32(b);
}
u32 out_f32(float f, const Modifiers& m, int mode) {
  if (m.omod != 1) f = m.omod > 0 ? f * static_cast<float>(m.omod) : f / static_cast<float>(-m.omod);
  if (m.clamp) f = std::isnan(f) ? 0.0f : std::fmin(std::fmax(f, 0.0f), 1.0f);
  u32 b = bits_of(f);
  return (mode & 2) ? b : flush32(b);
}

template <auto F, int N, bool Acc = false>
void vop_f32(Wave& w, const Op& op, Env& e) {
  u32 t[3][kLanes], r[kLanes];
  const u32* s[3];
  for (int i = 0; i < N; ++i) s[i] = src(w, op, i + 1, t[i]);
  const u32* acc = Acc ? vector_reg(w, O(op, 0)) : nullptr;
  bool plain = e.denorm_mode_32 == 3 && !op.t.mods.clamp && op.t.mods.omod == 1;
  for (int i = 0; i < N; ++i) plain = plain && !O(op, i + 1).abs && !O(op, i + 1).neg;
  if (plain) {
    for (int l = 0; l < kLanes; ++l) {
      float a = as_f32(s[0][l]), b = N > 1 ? as_f32(s[1][l]) : 0.f, c = N > 2 ? as_f32(s[2][l]) : (Acc ? as_f32(acc[l]) : 0.f);
      r[l] = bits_of(F(a, b, c));
    }
  } else {
    int mode = e.denorm_mode_32;
    for (int l = 0; l < kLanes; ++l) {
      float v[3] = {0, 0, Acc ? in_f32(acc[l], false, false, mode) : 0.f};
      for (int i = 0; i < N; ++i) v[i] = in_f32(s[i][l], O(op, i + 1).abs, O(op, i + 1).neg, mode);
      r[l] = out_f32(F(v[0], v[1], v[2]), op.t.mods, mode);
    }
  }
  store(w, op, r);
}

// ---- compares: a lane mask into vcc or an SGPR pair; v_cmpx also into EXEC ----
template <auto F, bool Float, bool Is64, bool X>
void vopc(Wave& w, const Op& op, Env& e) {
  u32 t0[kLanes], t1[kLanes], t2[kLanes], t3[kLanes];
  u64 mask = 0;
  if (Is64) {
    auto v64 = [&](int i, u32* lo, u32* hi) {
      const Operand& o = O(op, i);
      if (o.loc == Loc::VGPR) return std::pair<const u32*, const u32*>(vector_reg(w, o, 0), vector_reg(w, o, 1));
      u64 x = scalar_u64(w, o);
      for (int l = 0; l < kLanes; ++l) lo[l] = static_cast<u32>(x), hi[l] = static_cast<u32>(x >> 32);
      return std::pair<const u32*, const u32*>(lo, hi);
    };
    auto [alo, ahi] = v64(1, t0, t1);
    auto [blo, bhi] = v64(2, t2, t3);
    for (u64 ex = w.exec; ex; ex &= ex - 1) {
      int l = std::countr_zero(ex);
      u64 a = alo[l] | static_cast<u64>(ahi[l]) << 32, b = blo[l] | static_cast<u64>(bhi[l]) << 32;
      if (F(a, b)) mask |= 1ull << l;
    }
  } else {
    const u32* a = src(w, op, 1, t0);
    const u32* b = src(w, op, 2, t1);
    for (u64 ex = w.exec; ex; ex &= ex - 1) {
      int l = std::countr_zero(ex);
      bool r;
      if constexpr (Float)
        r = F(in_f32(a[l], O(op, 1).abs, O(op, 1).neg, e.denorm_mode_32),
              in_f32(b[l], O(op, 2).abs, O(op, 2).neg, e.denorm_mode_32));
      else
        r = F(a[l], b[l]);
      if (r) mask |= 1ull << l;
    }
  }
  write_scalar_u64(w, O(op, 0), mask);
  if (X) w.exec = mask;
}

// Packed f32 (VOP3P): the low result takes dword op_sel[i] of each 64-bit
// source, the high result dword op_sel_hi[i]; neg_lo / neg_hi negate.
void pk(Wave& w, const Op& op, Env& e, int n, float (*f)(float, float, float)) {
  const Modifiers& m = op.t.mods;
  u32 r0[kLanes], r1[kLanes];
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    float v[2][3] = {};
    for (int i = 0; i < n; ++i) {
      const Operand& o = O(op, i + 1);
      for (int half = 0; half < 2; ++half) {
        int dw = (half ? m.op_sel_hi[i] : m.op_sel[i]) ? 1 : 0;
        u32 b = (o.loc == Loc::VGPR || o.loc == Loc::AGPR) ? vector_reg(w, o, dw)[l]
                : o.loc == Loc::Const                      ? o.bits32()
                                                           : scalar_u32(w, o, dw);
        v[half][i] = in_f32(b, false, half ? m.neg_hi[i] : m.neg_lo[i], e.denorm_mode_32);
      }
    }
    r0[l] = out_f32(f(v[0][0], v[0][1], v[0][2]), m, e.denorm_mode_32);
    r1[l] = out_f32(f(v[1][0], v[1][1], v[1][2]), m, e.denorm_mode_32);
  }
  u32 *d0 = vector_reg(w, O(op, 0), 0), *d1 = vector_reg(w, O(op, 0), 1);
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    d0[l] = r0[l], d1[l] = r1[l];
  }
}

// Lane l of a 64-bit source: a VGPR pair, or a scalar pair / constant.
u64 read64(Wave& w, const Operand& o, int l) {
  if (o.loc == Loc::VGPR || o.loc == Loc::AGPR) return vector_reg(w, o, 0)[l] | static_cast<u64>(vector_reg(w, o, 1)[l]) << 32;
  return scalar_u64(w, o);
}

// A 64-bit source in every lane (active or not), as read64 gives it: one
// pass over the operand instead of a look at its kind per lane.
void lanes_u64(Wave& w, const Operand& o, u64 (&out)[kLanes]) {
  if (o.loc == Loc::VGPR || o.loc == Loc::AGPR) {
    const u32 *lo = vector_reg(w, o, 0), *hi = vector_reg(w, o, 1);
    for (int l = 0; l < kLanes; ++l) out[l] = lo[l] | static_cast<u64>(hi[l]) << 32;
    return;
  }
  const u64 x = scalar_u64(w, o);
  for (int l = 0; l < kLanes; ++l) out[l] = x;
}

// Writes 64-bit results to the destination pair's EXEC lanes.
void store64(Wave& w, const Op& op, const u64* vals) {
  u32 *lo = vector_reg(w, O(op, 0), 0), *hi = vector_reg(w, O(op, 0), 1);
  if (w.exec == ~0ull) {
    for (int l = 0; l < kLanes; ++l) lo[l] = static_cast<u32>(vals[l]), hi[l] = static_cast<u32>(vals[l] >> 32);
    return;
  }
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    lo[l] = static_cast<u32>(vals[l]), hi[l] = static_cast<u32>(vals[l] >> 32);
  }
}

// 64-bit shifts (REV forms: the shift amount is source 0, S0[5:0]); Kind 0
// left, 1 logical right, 2 arithmetic right.
template <int Kind>
void shift64(Wave& w, const Op& op, Env&) {
  u32 t0[kLanes];
  const u32* sh = lanes_u32(w, O(op, 1), t0);
  u64 vals[kLanes];
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    u64 x = read64(w, O(op, 2), l);
    u32 n = sh[l] & 63;
    vals[l] = Kind == 0 ? x << n : Kind == 1 ? x >> n : static_cast<u64>(static_cast<std::int64_t>(x) >> n);
  }
  store64(w, op, vals);
}

// v_mad_{u64_u32,i64_i32} vdst, sdst, S0, S1, S2: D = S0 * S1 + S2 in 64
// bits; sdst gets the lanes whose result does not fit.
template <bool Signed>
void mad64(Wave& w, const Op& op, Env&) {
  u32 t0[kLanes], t1[kLanes];
  const u32 *a = lanes_u32(w, O(op, 2), t0), *b = lanes_u32(w, O(op, 3), t1);
  u64 vals[kLanes], carry = 0;
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    int l = std::countr_zero(ex);
    u64 c = read64(w, O(op, 4), l);
    if (Signed) {
      __int128 r = static_cast<__int128>(static_cast<std::int64_t>(static_cast<i32>(a[l])) * static_cast<i32>(b[l])) +
                   static_cast<std::int64_t>(c);
      vals[l] = static_cast<u64>(r);
      if (r != static_cast<std::int64_t>(r)) carry |= 1ull << l;
    } else {
      unsigned __int128 r = static_cast<unsigned __int128>(static_cast<u64>(a[l]) * b[l]) + c;
      vals[l] = static_cast<u64>(r);
      if (r >> 64) carry |= 1ull << l;
    }
  }
  store64(w, op, vals);
  write_scalar_u64(w, O(op, 1), carry);
}

// Add/subtract with a carry (borrow) out per lane into sdst, and for the
// c/b forms a carry (borrow) in from operand 4: D = S0 +/- S1 +/- cin.  In
// 64 bits the sum's bit 32 is the carry; a borrow wraps the difference, so
// its bit 63 is set.
// The rev forms (v_subrev_co_u32, v_subbrev_co_u32) take S1 - S0.
template <bool Sub, bool CarryIn, bool Rev = false>
void carry_op(Wave& w, const Op& op, Env&) {
  u32 t0[kLanes], t1[kLanes], r[kLanes];
  const u32 *a = src(w, op, 2, t0, 2), *b = src(w, op, 3, t1, 2);
  if (Rev) std::swap(a, b);
  const u64 cin = CarryIn ? scalar_u64(w, O(op, 4)) : 0;
  u64 out = 0;
  for (u64 ex = w.exec; ex; ex &= ex - 1) {
    const int l = std::countr_zero(ex);
    const u64 c = (cin >> l) & 1;
    const u64 wide = Sub ? static_cast<u64>(a[l]) - b[l] - c : static_cast<u64>(a[l]) + b[l] + c;
    r[l] = static_cast<u32>(wide);
    if (Sub ? wide >> 63 : wide >> 32) out |= 1ull << l;
  }
  store(w, op, r);
  write_scalar_u64(w, O(op, 1), out);
}

// The f32 division helpers, after the ISA pseudo-code.  exponent() is the
// biased exponent field.
int exponent(float f) { return static_cast<int>((bits_of(f) >> 23) & 0xff); }
bool denorm(float f) { return std::fpclassify(f) == FP_SUBNORMAL; }

// The signed value of a 32-bit register, widened; a 64-bit value saturated to int32.
std::int64_t i64(u32 x) { return static_cast<std::int32_t>(x); }
u32 sat_i32(std::int64_t v) {
  return static_cast<u32>(static_cast<std::int32_t>(std::clamp<std::int64_t>(
      v, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max())));
}

}  // namespace

#define TL_INT1(name, ...) t[name] = vop_int<([](u32 a, u32, u32) -> u32 { return __VA_ARGS__; }), 1>
#define TL_INT2(name, ...) t[name] = vop_int<([](u32 a, u32 b, u32) -> u32 { return __VA_ARGS__; }), 2>
#define TL_INT3(name, ...) t[name] = vop_int<([](u32 a, u32 b, u32 c) -> u32 { return __VA_ARGS__; }), 3>
#define TL_F1(name, ...) t[name] = vop_f32<([](float a, float, float) -> float { return __VA_ARGS__; }), 1>
#define TL_F2(name, ...) t[name] = vop_f32<([](float a, float b, float) -> float { return __VA_ARGS__; }), 2>
#define TL_F3(name, ...) t[name] = vop_f32<([](float a, float b, float c) -> float { return __VA_ARGS__; }), 3>


void add_vector_ops(HandlerTable& t) {
  // Moves and bitwise.
  TL_INT1("v_mov_b32", a);
  TL_INT1("v_not_b32", ~a);
  TL_INT1("v_bfrev_b32", [](u32 x) {
    u32 r = 0;
    for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1) << (31 - i);
    return r;
  }(a));
  TL_INT1("v_ffbh_u32", a ? static_cast<u32>(std::countl_zero(a)) : 0xffffffffu);
  TL_INT1("v_ffbl_b32", a ? static_cast<u32>(std::countr_zero(a)) : 0xffffffffu);
  TL_INT2("v_and_b32", a & b);
  TL_INT2("v_or_b32", a | b);
  TL_INT2("v_xor_b32", a ^ b);
  TL_INT2("v_lshlrev_b32", b << (a & 31));
  TL_INT2("v_lshrrev_b32", b >> (a & 31));
  TL_INT2("v_ashrrev_i32", static_cast<u32>(static_cast<i32>(b) >> (a & 31)));
  // 16-bit shifts: the low half of src1 by src0[3:0], the 16-bit result
  // zero-extended into the destination — what LLVM's gfx9 code generation
  // relies on (it uses the result as a 32-bit value where gfx10 code masks it
  // with 0xffff first) [M].  op_sel (the VOP3 forms' half selects) is not read.
  TL_INT2("v_lshlrev_b16", (b << (a & 15)) & 0xffffu);
  TL_INT2("v_lshrrev_b16", (b & 0xffffu) >> (a & 15));
  TL_INT2("v_ashrrev_i16", static_cast<u32>(static_cast<i32>(static_cast<std::int16_t>(b)) >> (a & 15)) & 0xffffu);
  TL_INT2("v_bcnt_u32_b32", static_cast<u32>(std::popcount(a)) + b);
  TL_INT3("v_and_or_b32", (a & b) | c);
  TL_INT3("v_or3_b32", a | b | c);
  TL_INT3("v_xor3_b32", a ^ b ^ c);
  TL_INT3("v_lshl_or_b32", (a << (b & 31)) | c);
  TL_INT3("v_lshl_add_u32", (a << (b & 31)) + c);
  TL_INT3("v_add_lshl_u32", (a + b) << (c & 31));
  TL_INT3("v_xad_u32", (a ^ b) + c);
  TL_INT3("v_alignbit_b32", static_cast<u32>(((static_cast<u64>(a) << 32) | b) >> (c & 31)));
  TL_INT3("v_bfe_u32", (c & 31) == 0 ? 0u : (a >> (b & 31)) & (0xffffffffu >> (32 - (c & 31))));
  TL_INT3("v_bfe_i32", (c & 31) == 0 ? 0u
                                      : static_cast<u32>(static_cast<i32>((a >> (b & 31)) << (32 - (c & 31))) >>
                                                         (32 - (c & 31))));
  TL_INT3("v_bfi_b32", (a & b) | (~a & c));
  // v_perm_b32: each byte of D picks a byte of {S0, S1} (S1 is bytes 0-3) by
  // the selector byte of S2; 8-11 replicate a sign bit, 12 gives 0x00, 13+ 0xff.
  TL_INT3("v_perm_b32", [](u32 s0, u32 s1, u32 sel) {
    u64 v = static_cast<u64>(s0) << 32 | s1;
    u32 r = 0;
    for (int i = 0; i < 4; ++i) {
      u32 s = (sel >> (8 * i)) & 0xff, byte;
      if (s < 8) byte = static_cast<u32>(v >> (8 * s)) & 0xff;
      else if (s < 12) byte = ((v >> (16 * (s - 8) + 15)) & 1) ? 0xff : 0x00;
      else byte = s == 12 ? 0x00 : 0xff;
      r |= byte << (8 * i);
    }
    return r;
  }(a, b, c));
  // Integer arithmetic (no carry out).
  TL_INT2("v_add_u32", a + b);
  TL_INT2("v_sub_u32", a - b);
  // v_add_i32 / v_sub_i32 (VOP3 on gfx9): two's-complement wrap, or with
  // clamp the exact result saturated to the int32 range.
  t["v_add_i32"] = [](Wave& w, const Op& op, Env& e) {
    if (op.t.mods.clamp) vop_int<([](u32 a, u32 b, u32) -> u32 { return sat_i32(i64(a) + i64(b)); }), 2>(w, op, e);
    else vop_int<([](u32 a, u32 b, u32) -> u32 { return a + b; }), 2>(w, op, e);
  };
  t["v_sub_i32"] = [](Wave& w, const Op& op, Env& e) {
    if (op.t.mods.clamp) vop_int<([](u32 a, u32 b, u32) -> u32 { return sat_i32(i64(a) - i64(b)); }), 2>(w, op, e);
    else vop_int<([](u32 a, u32 b, u32) -> u32 { return a - b; }), 2>(w, op, e);
  };
  t["v_nop"] = [](Wave&, const Op&, Env&) {};
  TL_INT2("v_subrev_u32", b - a);
  TL_INT2("v_mul_lo_u32", a * b);
  TL_INT2("v_mul_hi_u32", static_cast<u32>((static_cast<u64>(a) * b) >> 32));
  TL_INT2("v_mul_hi_i32", static_cast<u32>(static_cast<u64>(static_cast<std::int64_t>(static_cast<i32>(a)) *
                                                            static_cast<i32>(b)) >> 32));
  TL_INT2("v_mul_u32_u24", (a & 0xffffff) * (b & 0xffffff));
  TL_INT2("v_mul_i32_i24", static_cast<u32>(((static_cast<i32>(a << 8)) >> 8) * ((static_cast<i32>(b << 8)) >> 8)));
  TL_INT2("v_max_i32", static_cast<i32>(a) > static_cast<i32>(b) ? a : b);
  TL_INT2("v_min_i32", static_cast<i32>(a) < static_cast<i32>(b) ? a : b);
  TL_INT2("v_max_u32", a > b ? a : b);
  TL_INT2("v_min_u32", a < b ? a : b);
  TL_INT3("v_add3_u32", a + b + c);
  TL_INT3("v_mad_u32_u24", (a & 0xffffff) * (b & 0xffffff) + c);
  // bitop3: bit i of D is the truth table's entry (S0_i << 2 | S1_i << 1 | S2_i).
  t["v_bitop3_b32"] = [](Wave& w, const Op& op, Env&) {
    u32 t0[kLanes], t1[kLanes], t2[kLanes], r[kLanes];
    const u32 *a = src(w, op, 1, t0), *b = src(w, op, 2, t1), *c = src(w, op, 3, t2);
    u32 tt = static_cast<u32>(op.t.mods.bitop3);
    for (int l = 0; l < kLanes; ++l) {
      u32 x = 0;
      for (int k = 0; k < 8; ++k)
        if ((tt >> k) & 1) x |= ((k & 4) ? a[l] : ~a[l]) & ((k & 2) ? b[l] : ~b[l]) & ((k & 1) ? c[l] : ~c[l]);
      r[l] = x;
    }
    store(w, op, r);
  };
  // Packed 16-bit integer add: each half picks its source halves by op_sel / op_sel_hi.
  t["v_pk_add_u16"] = [](Wave& w, const Op& op, Env&) {
    u32 t0[kLanes], t1[kLanes], r[kLanes];
    const u32 *a = src(w, op, 1, t0), *b = src(w, op, 2, t1);
    const Modifiers& m = op.t.mods;
    for (int l = 0; l < kLanes; ++l) {
      u32 lo = ((a[l] >> (m.op_sel[0] ? 16 : 0)) + (b[l] >> (m.op_sel[1] ? 16 : 0))) & 0xffff;
      u32 hi = ((a[l] >> (m.op_sel_hi[0] ? 16 : 0)) + (b[l] >> (m.op_sel_hi[1] ? 16 : 0))) & 0xffff;
      r[l] = lo | hi << 16;
    }
    store(w, op, r);
  };
  // Carry-out forms: ops [vdst, sdst(carry), src0, src1(, carry-in)].
  t["v_add_co_u32"] = carry_op<false, false>;
  t["v_addc_co_u32"] = carry_op<false, true>;
  t["v_sub_co_u32"] = carry_op<true, false>;
  t["v_subb_co_u32"] = carry_op<true, true>;
  t["v_subrev_co_u32"] = carry_op<true, false, true>;
  t["v_subbrev_co_u32"] = carry_op<true, true, true>;
  // v_add_u16 (gfx9 VOP2/VOP3): D = S0[15:0] + S1[15:0] mod 2^16, the high
  // half zero [I] (the ISA writes D.u16; gfx9 does not keep the high half).
  TL_INT2("v_add_u16", (a + b) & 0xffff);
  // v_swap_b32: the two VGPRs exchange values (lanes in EXEC).
  t["v_swap_b32"] = [](Wave& w, const Op& op, Env&) {
    u32 *x = vector_reg(w, O(op, 0)), *y = vector_reg(w, O(op, 1));
    for (u64 ex = w.exec; ex; ex &= ex - 1) {
      const int l = std::countr_zero(ex);
      std::swap(x[l], y[l]);
    }
  };
  // 64-bit: v_mov_b64, v_lshl_add_u64 (D = (S0 << S1[2:0]) + S2), shifts, v_mad_{u64_u32,i64_i32}.
  t["v_mov_b64"] = [](Wave& w, const Op& op, Env&) {
    u64 vals[kLanes];
    for (u64 ex = w.exec; ex; ex &= ex - 1) vals[std::countr_zero(ex)] = read64(w, O(op, 1), std::countr_zero(ex));
    store64(w, op, vals);
  };
  t["v_lshl_add_u64"] = [](Wave& w, const Op& op, Env&) {  // every lane computed, the active ones stored
    u32 t1[kLanes];
    const u32* sh = lanes_u32(w, O(op, 2), t1);
    u64 a[kLanes], c[kLanes];
    lanes_u64(w, O(op, 1), a);
    lanes_u64(w, O(op, 3), c);
    for (int l = 0; l < kLanes; ++l) a[l] = (a[l] << (sh[l] & 7)) + c[l];
    store64(w, op, a);
  };
  t["v_lshlrev_b64"] = shift64<0>;
  t["v_lshrrev_b64"] = shift64<1>;
  t["v_ashrrev_i64"] = shift64<2>;
  t["v_mad_u64_u32"] = mad64<false>;
  t["v_mad_i64_i32"] = mad64<true>;
  // Lane counting and cross-lane moves.
  t["v_mbcnt_lo_u32_b32"] = [](Wave& w, const Op& op, Env&) {
    u32 t0[kLanes], t1[kLanes], r[kLanes];
    const u32 *a = lanes_u32(w, O(op, 1), t0), *b = lanes_u32(w, O(op, 2), t1);
    for (int l = 0; l < kLanes; ++l) {
      u32 below = l >= 32 ? 0xffffffffu : (1u << l) - 1;
      r[l] = static_cast<u32>(std::popcount(a[l] & below)) + b[l];
    }
    store(w, op, r);
  };
  t["v_mbcnt_hi_u32_b32"] = [](Wave& w, const Op& op, Env&) {
    u32 t0[kLanes], t1[kLanes], r[kLanes];
    const u32 *a = lanes_u32(w, O(op, 1), t0), *b = lanes_u32(w, O(op, 2), t1);
    for (int l = 0; l < kLanes; ++l) {
      u32 below = l < 32 ? 0u : (1u << (l - 32)) - 1;
      r[l] = static_cast<u32>(std::popcount(a[l] & below)) + b[l];
    }
    store(w, op, r);
  };
  t["v_readlane_b32"] = [](Wave& w, const Op& op, Env&) {
    write_scalar_u32(w, O(op, 0), vector_reg(w, O(op, 1))[scalar_u32(w, O(op, 2)) & 63]);
  };
  t["v_writelane_b32"] = [](Wave& w, const Op& op, Env&) {  // ignores EXEC
    vector_reg(w, O(op, 0))[scalar_u32(w, O(op, 2)) & 63] = scalar_u32(w, O(op, 1));
  };
  t["v_readfirstlane_b32"] = [](Wave& w, const Op& op, Env&) {
    int lane = w.exec ? std::countr_zero(w.exec) : 0;
    u32 t0[kLanes];
    write_scalar_u32(w, O(op, 0), lanes_u32(w, O(op, 1), t0)[lane]);
  };
  // v_permlane32_swap_b32 vdst, vsrc: vdst's lanes 32-63 and vsrc's lanes
  // 0-31 trade places; v_permlane16_swap_b32: vdst's odd rows (lanes 16-31,
  // 48-63) and vsrc's even rows (0-15, 32-47) trade places (gfx950).  Both
  // registers are written; EXEC is ignored.
  t["v_permlane32_swap_b32"] = [](Wave& w, const Op& op, Env&) {
    u32 *d = vector_reg(w, O(op, 0)), *s = vector_reg(w, O(op, 1));
    for (int l = 0; l < 32; ++l) std::swap(d[32 + l], s[l]);
  };
  t["v_permlane16_swap_b32"] = [](Wave& w, const Op& op, Env&) {
    u32 *d = vector_reg(w, O(op, 0)), *s = vector_reg(w, O(op, 1));
    for (int base : {0, 32})
      for (int l = 0; l < 16; ++l) std::swap(d[base + 16 + l], s[base + l]);
  };
  // v_cndmask_b32: D = mask[lane] ? S1 : S0 (mask: vcc or an SGPR pair).
  t["v_cndmask_b32"] = [](Wave& w, const Op& op, Env&) {
    u32 t0[kLanes], t1[kLanes], r[kLanes];
    const u32 *a = src(w, op, 1, t0), *b = src(w, op, 2, t1);
    u64 m = scalar_u64(w, O(op, 3));
    bool mods = O(op, 1).abs || O(op, 1).neg || O(op, 2).abs || O(op, 2).neg;
    for (int l = 0; l < kLanes; ++l) {
      bool pick = (m >> l) & 1;
      r[l] = pick ? b[l] : a[l];
      if (mods) r[l] = bits_of(in_f32(r[l], O(op, pick ? 2 : 1).abs, O(op, pick ? 2 : 1).neg, 3));
    }
    store(w, op, r);
  };
  // f32 arithmetic.
  TL_F2("v_add_f32", a + b);
  TL_F2("v_sub_f32", a - b);
  TL_F2("v_subrev_f32", b - a);
  TL_F2("v_mul_f32", a * b);
  TL_F3("v_fma_f32", std::fma(a, b, c));
  TL_F3("v_mad_f32", a * b + c);
  t["v_fmac_f32"] = vop_f32<([](float a, float b, float c) -> float { return std::fma(a, b, c); }), 2, true>;
  t["v_mac_f32"] = vop_f32<([](float a, float b, float c) -> float { return a * b + c; }), 2, true>;
  // IEEE-mode min/max: a NaN operand yields the other operand.
  TL_F2("v_max_f32", std::fmax(a, b));
  TL_F2("v_min_f32", std::fmin(a, b));
  TL_F3("v_max3_f32", std::fmax(std::fmax(a, b), c));
  // v_med3_f32 after the ISA pseudo-code: any NaN gives min3; otherwise the
  // larger of the two operands that are not the maximum.
  TL_F3("v_med3_f32", std::isnan(a) || std::isnan(b) || std::isnan(c) ? std::fmin(std::fmin(a, b), c)
                      : std::fmax(std::fmax(a, b), c) == a                 ? std::fmax(b, c)
                      : std::fmax(std::fmax(a, b), c) == b                 ? std::fmax(a, c)
                                                                           : std::fmax(a, b));
  // The literal-constant FMAs: fmamk D = S0 * K + S1, fmaak D = S0 * S1 + K
  // (the operands in the order the assembly writes them).
  TL_F3("v_fmamk_f32", std::fma(a, b, c));
  TL_F3("v_fmaak_f32", std::fma(a, b, c));
  TL_F3("v_min3_f32", std::fmin(std::fmin(a, b), c));
  TL_F1("v_rcp_f32", static_cast<float>(1.0 / static_cast<double>(a)));
  // The "integer flag" reciprocal (for integer division) computes the same
  // value; it differs only in the exceptions it may raise.
  TL_F1("v_rcp_iflag_f32", static_cast<float>(1.0 / static_cast<double>(a)));
  TL_F1("v_rsq_f32", static_cast<float>(1.0 / std::sqrt(static_cast<double>(a))));
  TL_F1("v_sqrt_f32", static_cast<float>(std::sqrt(static_cast<double>(a))));
  TL_F1("v_exp_f32", static_cast<float>(std::exp2(static_cast<double>(a))));
  TL_F1("v_log_f32", static_cast<float>(std::log2(static_cast<double>(a))));
  TL_F1("v_floor_f32", std::floor(a));
  TL_F1("v_ceil_f32", std::ceil(a));
  TL_F1("v_trunc_f32", std::trunc(a));
  TL_F1("v_rndne_f32", std::nearbyint(a));
  TL_F1("v_fract_f32", a - std::floor(a));
  TL_F2("v_ldexp_f32", std::ldexp(a, static_cast<int>(bits_of(b))));
  // Conversions.
  t["v_cvt_f32_i32"] = vop_int<([](u32 a, u32, u32) -> u32 { return bits_of(static_cast<float>(static_cast<i32>(a))); }), 1>;
  t["v_cvt_f32_u32"] = vop_int<([](u32 a, u32, u32) -> u32 { return bits_of(static_cast<float>(a)); }), 1>;
  t["v_cvt_i32_f32"] = vop_int<([](u32 a, u32, u32) -> u32 {
    float f = as_f32(a);
    if (std::isnan(f)) return 0;
    if (f >= 2147483647.0f) return 0x7fffffffu;
    if (f <= -2147483648.0f) return 0x80000000u;
    return static_cast<u32>(static_cast<i32>(f));
  }), 1>;
  t["v_cvt_u32_f32"] = vop_int<([](u32 a, u32, u32) -> u32 {
    float f = as_f32(a);
    if (std::isnan(f) || f <= 0) return 0;
    if (f >= 4294967295.0f) return 0xffffffffu;
    return static_cast<u32>(f);
  }), 1>;
  // Half conversions: results in the low 16 bits, the high half zero (GFX9).
  t["v_cvt_f16_f32"] = [](Wave& w, const Op& op, Env& e) {
    u32 t0[kLanes], r[kLanes];
    const u32* a = src(w, op, 1, t0);
    for (int l = 0; l < kLanes; ++l) r[l] = f32_to_f16(in_f32(a[l], O(op, 1).abs, O(op, 1).neg, e.denorm_mode_32));
    store(w, op, r);
  };
  t["v_cvt_f32_f16"] = [](Wave& w, const Op& op, Env&) {
    u32 t0[kLanes], r[kLanes];
    const u32* a = src(w, op, 1, t0);
    int shift = op.t.mods.op_sel[0] ? 16 : 0;
    for (int l = 0; l < kLanes; ++l) {
      float f = f16_to_f32(static_cast<std::uint16_t>(a[l] >> shift));
      if (O(op, 1).abs) f = std::fabs(f);
      if (O(op, 1).neg) f = -f;
      r[l] = bits_of(f);
    }
    store(w, op, r);
  };
  t["v_cvt_pkrtz_f16_f32"] = [](Wave& w, const Op& op, Env& e) {  // round toward zero
    u32 t0[kLanes], t1[kLanes], r[kLanes];
    const u32 *a = src(w, op, 1, t0), *b = src(w, op, 2, t1);
    for (int l = 0; l < kLanes; ++l)
      r[l] = f32_to_f16(in_f32(a[l], O(op, 1).abs, O(op, 1).neg, e.denorm_mode_32), true) |
             static_cast<u32>(f32_to_f16(in_f32(b[l], O(op, 2).abs, O(op, 2).neg, e.denorm_mode_32), true)) << 16;
    store(w, op, r);
  };
  t["v_pack_b32_f16"] = [](Wave& w, const Op& op, Env&) {
    u32 t0[kLanes], t1[kLanes], r[kLanes];
    const u32 *a = src(w, op, 1, t0), *b = src(w, op, 2, t1);
    const Modifiers& m = op.t.mods;
    for (int l = 0; l < kLanes; ++l)
      r[l] = ((a[l] >> (m.op_sel[0] ? 16 : 0)) & 0xffff) | ((b[l] >> (m.op_sel[1] ? 16 : 0)) & 0xffff) << 16;
    store(w, op, r);
  };
  t["v_cvt_pk_bf16_f32"] = [](Wave& w, const Op& op, Env& e) {
    u32 t0[kLanes], t1[kLanes], r[kLanes];
    const u32 *a = src(w, op, 1, t0), *b = src(w, op, 2, t1);
    for (int l = 0; l < kLanes; ++l) {
      u32 x = bits_of(in_f32(a[l], O(op, 1).abs, O(op, 1).neg, e.denorm_mode_32));
      u32 y = bits_of(in_f32(b[l], O(op, 2).abs, O(op, 2).neg, e.denorm_mode_32));
      r[l] = bf16_rne(x) | static_cast<u32>(bf16_rne(y)) << 16;
    }
    store(w, op, r);
  };
  // Two f32 into two IEEE halves (S0 low, S1 high), round to nearest even.
  t["v_cvt_pk_f16_f32"] = [](Wave& w, const Op& op, Env& e) {
    u32 t0[kLanes], t1[kLanes], r[kLanes];
    const u32 *a = src(w, op, 1, t0), *b = src(w, op, 2, t1);
    for (int l = 0; l < kLanes; ++l) {
      const float x = in_f32(a[l], O(op, 1).abs, O(op, 1).neg, e.denorm_mode_32);
      const float y = in_f32(b[l], O(op, 2).abs, O(op, 2).neg, e.denorm_mode_32);
      r[l] = f32_to_f16(x) | static_cast<u32>(f32_to_f16(y)) << 16;
    }
    store(w, op, r);
  };
  // Two f32 into two OCP E4M3 bytes (gfx950; [M] MLIR's AMDGPU chipset rules:
  // the same mnemonic is FNUZ on gfx942 and OCP from gfx950 on), S0 in the low
  // byte and S1 in the high byte of the word op_sel's destination bit picks;
  // the other word keeps its value.  Round to nearest even ([O] ISA).  A NaN,
  // an infinity or an overflow, and the clamp form, stop the run: their
  // results are not settled from a public source.
  t["v_cvt_pk_fp8_f32"] = [](Wave& w, const Op& op, Env& e) {
    if (!e.ocp_fp8) throw EmuError("v_cvt_pk_fp8_f32 on gfx942 converts to E4M3FNUZ, which is not emulated");
    if (op.t.mods.clamp) throw EmuError("v_cvt_pk_fp8_f32 with clamp: its saturation is not settled from a public source");
    u32 t0[kLanes], t1[kLanes];
    const u32 *a = src(w, op, 1, t0), *b = src(w, op, 2, t1);
    const bool high = op.t.mods.op_sel[2] || op.t.mods.op_sel[3];
    u32* d = vector_reg(w, O(op, 0));
    for (u64 ex = w.exec; ex; ex &= ex - 1) {
      const int l = std::countr_zero(ex);
      const float x = in_f32(a[l], O(op, 1).abs, O(op, 1).neg, e.denorm_mode_32);
      const float y = in_f32(b[l], O(op, 2).abs, O(op, 2).neg, e.denorm_mode_32);
      bool over_x = false, over_y = false;
      const u32 word = encode_e4m3_rne(x, over_x) | static_cast<u32>(encode_e4m3_rne(y, over_y)) << 8;
      if (over_x || over_y)
        throw EmuError("v_cvt_pk_fp8_f32: lane " + std::to_string(l) + " converts " + std::to_string(over_x ? x : y) +
                       ", beyond E4M3's 448 (or not finite), without clamp: the hardware's result for it is not settled "
                       "from a public source");
      d[l] = high ? (d[l] & 0xffffu) | word << 16 : (d[l] & 0xffff0000u) | word;
    }
  };
  // S0 to an unsigned byte (round to nearest even, clamped to [0, 255], NaN
  // 0: see u8_rne_clamped) into byte S1[1:0] of S2; the other bytes of S2
  // kept ([O] ISA pseudo-code for the packing).
  t["v_cvt_pk_u8_f32"] = [](Wave& w, const Op& op, Env& e) {
    u32 t0[kLanes], t1[kLanes], t2[kLanes], r[kLanes];
    const u32 *a = src(w, op, 1, t0), *sel = src(w, op, 2, t1), *old = src(w, op, 3, t2);
    for (int l = 0; l < kLanes; ++l) {
      const u32 shift = (sel[l] & 3u) * 8u;
      const u32 byte = u8_rne_clamped(in_f32(a[l], O(op, 1).abs, O(op, 1).neg, e.denorm_mode_32));
      r[l] = (old[l] & ~(0xffu << shift)) | byte << shift;
    }
    store(w, op, r);
  };
  // gfx950's scaled FP8 -> bf16: the two E4M3 bytes of S0's low word (op_sel[0]:
  // the high word), each times 2^(e - 127) for S1's biased exponent e, rounded
  // to bf16 (nearest even); the first byte into the low half.  [O] CDNA4 ISA
  // text; the word select [M] AMD's and vLLM's FlyDSL kernels (op_sel:[1,0] picks
  // bytes 2 and 3).  A scale with e = 255 stops the run (not settled).
  t["v_cvt_scalef32_pk_bf16_fp8"] = [](Wave& w, const Op& op, Env& e) {
    if (!e.ocp_fp8) throw EmuError("v_cvt_scalef32_pk_bf16_fp8 exists on gfx950 only (OCP FP8)");
    u32 t0[kLanes], t1[kLanes], r[kLanes];
    const u32 *a = src(w, op, 1, t0), *scale = src(w, op, 2, t1);
    const int shift = op.t.mods.op_sel[0] ? 16 : 0;
    for (u64 ex = w.exec; ex; ex &= ex - 1) {
      const int l = std::countr_zero(ex);
      const int exponent = scale_exponent(scale[l]);
      if (exponent == 255)
        throw EmuError("v_cvt_scalef32_pk_bf16_fp8: lane " + std::to_string(l) +
                       "'s scale has exponent 255 (infinite or NaN): the result is not settled from a public source");
      u32 halves = 0;
      for (int i = 0; i < 2; ++i) {
        const float v = std::ldexp(decode_f8f6f4(0, (a[l] >> (shift + 8 * i)) & 0xffu), exponent - 127);
        halves |= static_cast<u32>(bf16_rne(bits_of(v))) << (16 * i);
      }
      r[l] = halves;
    }
    store(w, op, r);
  };
  // gfx950's scaled f32 -> FP4: S0 and S1 divided by 2^(e - 127) for S2's
  // biased exponent e, each to E2M1 (nearest even; see encode_e2m1_rne), S0 in
  // the low nibble, into the byte op_sel[2] + 2*op_sel[3] of D; D's other bytes
  // kept.  [O] CDNA4 ISA text (scale by the exponent, round to nearest even);
  // division, not multiplication, [M] MLIR's arith.scaling_truncf (in / scale)
  // lowered to this instruction with the scale unchanged; nibble order [M]
  // Meta's and AMD's Triton packers; the byte select [M] LLVM's MC tests
  // (op_sel:[0,0,1,0] is byte 1).  A NaN input or an e = 255 scale stops the run.
  t["v_cvt_scalef32_pk_fp4_f32"] = [](Wave& w, const Op& op, Env& e) {
    u32 t0[kLanes], t1[kLanes], t2[kLanes];
    const u32 *a = src(w, op, 1, t0), *b = src(w, op, 2, t1), *scale = src(w, op, 3, t2);
    const u32 shift = 8u * (static_cast<u32>(op.t.mods.op_sel[2]) + 2u * static_cast<u32>(op.t.mods.op_sel[3]));
    u32* d = vector_reg(w, O(op, 0));
    for (u64 ex = w.exec; ex; ex &= ex - 1) {
      const int l = std::countr_zero(ex);
      const int exponent = scale_exponent(scale[l]);
      if (exponent == 255)
        throw EmuError("v_cvt_scalef32_pk_fp4_f32: lane " + std::to_string(l) +
                       "'s scale has exponent 255 (infinite or NaN): the result is not settled from a public source");
      bool nan_x = false, nan_y = false;
      const float x = std::ldexp(in_f32(a[l], O(op, 1).abs, O(op, 1).neg, e.denorm_mode_32), 127 - exponent);
      const float y = std::ldexp(in_f32(b[l], O(op, 2).abs, O(op, 2).neg, e.denorm_mode_32), 127 - exponent);
      const u32 byte = encode_e2m1_rne(x, nan_x) | encode_e2m1_rne(y, nan_y) << 4;
      if (nan_x || nan_y)
        throw EmuError("v_cvt_scalef32_pk_fp4_f32: lane " + std::to_string(l) +
                       " converts a NaN, which E2M1 cannot hold: the hardware's result is not settled from a public source");
      d[l] = (d[l] & ~(0xffu << shift)) | byte << shift;
    }
  };
  // bf16 to f32 (gfx950): the half op_sel[0] picks (low by default) into the high bits, exact.
  t["v_cvt_f32_bf16"] = [](Wave& w, const Op& op, Env&) {
    u32 t0[kLanes], r[kLanes];
    const u32* a = src(w, op, 1, t0);
    for (int l = 0; l < kLanes; ++l) r[l] = (op.t.mods.op_sel[0] ? a[l] >> 16 : a[l] & 0xffff) << 16;
    store(w, op, r);
  };
  // Packed f32 (VOP3P), see pk().
  t["v_pk_mul_f32"] = [](Wave& w, const Op& op, Env& e) { pk(w, op, e, 2, [](float a, float b, float) { return a * b; }); };
  t["v_pk_add_f32"] = [](Wave& w, const Op& op, Env& e) { pk(w, op, e, 2, [](float a, float b, float) { return a + b; }); };
  t["v_pk_fma_f32"] = [](Wave& w, const Op& op, Env& e) {
    pk(w, op, e, 3, [](float a, float b, float c) { return std::fma(a, b, c); });
  };
  t["v_pk_mov_b32"] = [](Wave& w, const Op& op, Env& e) { pk(w, op, e, 2, [](float a, float b, float) { return a + 0.0f * b; }); };
  // Division helpers (v_div_scale / v_div_fmas / v_div_fixup), ISA pseudo-code.
  // v_div_scale_f32 D, VCC, S0, S1 (denominator), S2 (numerator).
  t["v_div_scale_f32"] = [](Wave& w, const Op& op, Env& e) {
    u32 t0[kLanes], t1[kLanes], t2[kLanes], r[kLanes];
    const u32 *p0 = src(w, op, 2, t0, 2), *p1 = src(w, op, 3, t1, 2), *p2 = src(w, op, 4, t2, 2);
    u64 flag = 0;
    for (u64 ex = w.exec; ex; ex &= ex - 1) {
      int l = std::countr_zero(ex);
      int mode = e.denorm_mode_32;
      float s0 = in_f32(p0[l], O(op, 2).abs, O(op, 2).neg, mode), s1 = in_f32(p1[l], O(op, 3).abs, O(op, 3).neg, mode),
            s2 = in_f32(p2[l], O(op, 4).abs, O(op, 4).neg, mode);
      float d = s0;
      bool vcc = false;
      if (s2 == 0.0f || s1 == 0.0f) {
        d = std::numeric_limits<float>::quiet_NaN();
      } else if (exponent(s2) - exponent(s1) >= 96) {
        vcc = true;
        if (s0 == s1) d = std::ldexp(s0, 64);
      } else if (denorm(s1)) {
        d = std::ldexp(s0, 64);
      } else if (denorm(1.0f / s1) && !denorm(s2 / s1)) {
        vcc = true;
        if (s0 == s1) d = std::ldexp(s0, 64);
      } else if (denorm(1.0f / s1)) {
        d = std::ldexp(s0, 64);
      } else if (denorm(s2 / s1)) {
        vcc = true;
        if (s0 == s2) d = std::ldexp(s0, 64);
      } else if (exponent(s2) <= 23) {
        d = std::ldexp(s0, 64);
      }
      r[l] = bits_of(d);
      if (vcc) flag |= 1ull << l;
    }
    store(w, op, r);
    write_scalar_u64(w, O(op, 1), flag);
  };
  // v_div_fmas_f32: fma(S0, S1, S2), scaled by 2^64 (S2 large) or 2^-64 where VCC is set.
  t["v_div_fmas_f32"] = [](Wave& w, const Op& op, Env& e) {
    u32 t0[kLanes], t1[kLanes], t2[kLanes], r[kLanes];
    const u32 *p0 = src(w, op, 1, t0), *p1 = src(w, op, 2, t1), *p2 = src(w, op, 3, t2);
    int mode = e.denorm_mode_32;
    for (int l = 0; l < kLanes; ++l) {
      float s0 = in_f32(p0[l], O(op, 1).abs, O(op, 1).neg, mode), s1 = in_f32(p1[l], O(op, 2).abs, O(op, 2).neg, mode),
            s2 = in_f32(p2[l], O(op, 3).abs, O(op, 3).neg, mode);
      float d = std::fma(s0, s1, s2);
      if ((w.vcc >> l) & 1) d = exponent(s2) > 127 ? std::ldexp(d, 64) : std::ldexp(d, -64);
      r[l] = out_f32(d, op.t.mods, mode);
    }
    store(w, op, r);
  };
  // v_div_fixup_f32 D, S0 (quotient), S1 (denominator), S2 (numerator): the special cases.
  t["v_div_fixup_f32"] = vop_f32<([](float q, float den, float num) -> float {
    bool neg = std::signbit(den) != std::signbit(num);
    const float inf = std::numeric_limits<float>::infinity();
    if (std::isnan(num)) return std::numeric_limits<float>::quiet_NaN();
    if (std::isnan(den)) return std::numeric_limits<float>::quiet_NaN();
    if ((den == 0 && num == 0) || (std::isinf(den) && std::isinf(num))) return std::numeric_limits<float>::quiet_NaN();
    if (den == 0 || std::isinf(num)) return neg ? -inf : inf;
    if (std::isinf(den) || num == 0) return neg ? -0.0f : 0.0f;
    if (exponent(num) - exponent(den) < -150) return neg ? -0.0f : 0.0f;
    if (exponent(den) == 255) return neg ? -inf : inf;
    return neg ? -std::fabs(q) : std::fabs(q);
  }), 3>;
  // Compares.
#define TL_CMPF(n, expr)                                                                          \
  t["v_cmp_" n "_f32"] = vopc<([](float a, float b) -> bool { return expr; }), true, false, false>; \
  t["v_cmpx_" n "_f32"] = vopc<([](float a, float b) -> bool { return expr; }), true, false, true>
  TL_CMPF("f", (void(a), void(b), false));
  TL_CMPF("lt", a < b);
  TL_CMPF("eq", a == b);
  TL_CMPF("le", a <= b);
  TL_CMPF("gt", a > b);
  TL_CMPF("lg", a < b || a > b);
  TL_CMPF("ge", a >= b);
  TL_CMPF("o", !std::isnan(a) && !std::isnan(b));
  TL_CMPF("u", std::isnan(a) || std::isnan(b));
  TL_CMPF("nge", !(a >= b));
  TL_CMPF("nlg", !(a < b || a > b));
  TL_CMPF("ngt", !(a > b));
  TL_CMPF("nle", !(a <= b));
  TL_CMPF("neq", !(a == b));
  TL_CMPF("nlt", !(a < b));
  TL_CMPF("tru", (void(a), void(b), true));
#define TL_CMPI(n, expr)                                                                                            \
  t["v_cmp_" n "_i32"] = vopc<([](u32 x, u32 y) -> bool { i32 a = static_cast<i32>(x), b = static_cast<i32>(y); return expr; }), false, false, false>; \
  t["v_cmpx_" n "_i32"] = vopc<([](u32 x, u32 y) -> bool { i32 a = static_cast<i32>(x), b = static_cast<i32>(y); return expr; }), false, false, true>;  \
  t["v_cmp_" n "_u32"] = vopc<([](u32 a, u32 b) -> bool { return expr; }), false, false, false>;                    \
  t["v_cmpx_" n "_u32"] = vopc<([](u32 a, u32 b) -> bool { return expr; }), false, false, true>;                    \
  t["v_cmp_" n "_i64"] = vopc<([](u64 x, u64 y) -> bool { std::int64_t a = static_cast<std::int64_t>(x), b = static_cast<std::int64_t>(y); return expr; }), false, true, false>; \
  t["v_cmp_" n "_u64"] = vopc<([](u64 a, u64 b) -> bool { return expr; }), false, true, false>
  TL_CMPI("lt", a < b);
  TL_CMPI("eq", a == b);
  TL_CMPI("le", a <= b);
  TL_CMPI("gt", a > b);
  TL_CMPI("ne", a != b);
  TL_CMPI("ge", a >= b);
  t["v_cmp_class_f32"] = vopc<([](u32 x, u32 mask) -> bool {
    float f = as_f32(x);
    bool neg = std::signbit(f);
    int cls;
    if (std::isnan(f)) cls = (x & 0x400000u) ? 1 : 0;  // 0 signaling, 1 quiet
    else if (std::isinf(f)) cls = neg ? 2 : 9;
    else if (f == 0) cls = neg ? 5 : 6;
    else if (is_denorm32(x)) cls = neg ? 4 : 7;
    else cls = neg ? 3 : 8;
    return (mask >> cls) & 1;
  }), false, false, false>;
}

}  // namespace tilelab::emu
