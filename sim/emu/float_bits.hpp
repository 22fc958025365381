// Bit-level float helpers shared by the vector and MFMA semantics.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace tilelab::emu {

inline float as_f32(std::uint32_t b) { return std::bit_cast<float>(b); }
inline std::uint32_t bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }
inline bool is_denorm32(std::uint32_t b) { return (b & 0x7f800000u) == 0 && (b & 0x7fffffu) != 0; }
inline std::uint32_t flush32(std::uint32_t b) { return is_denorm32(b) ? (b & 0x80000000u) : b; }

// f32 -> bf16, round to nearest even; NaN stays NaN (quieted, sign kept).
inline std::uint16_t bf16_rne(std::uint32_t b) {
  if ((b & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((b >> 16) | 0x40);
  std::uint32_t lsb = (b >> 16) & 1;
  return static_cast<std::uint16_t>((b + 0x7fffu + lsb) >> 16);
}
inline float bf16_to_f32(std::uint16_t h) { return as_f32(static_cast<std::uint32_t>(h) << 16); }

// IEEE half <-> f32 (round to nearest even).
inline float f16_to_f32(std::uint16_t h) {
  std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0x1f) return as_f32(sign | 0x7f800000u | man << 13);
  if (exp == 0) {
    float v = std::ldexp(static_cast<float>(man), -24);
    return sign ? -v : v;
  }
  return as_f32(sign | (exp + 112) << 23 | man << 13);
}

// f32 -> IEEE half, round to nearest even (toward_zero: truncate instead);
// overflow to infinity (toward_zero: to the largest finite), NaN stays NaN
// (quieted, sign kept), tiny values to half denormals.
inline std::uint16_t f32_to_f16(float f, bool toward_zero = false) {
  const std::uint32_t b = bits_of(f);
  const std::uint16_t sign = static_cast<std::uint16_t>((b >> 16) & 0x8000);
  const std::uint32_t abs = b & 0x7fffffffu;
  if (abs > 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7e00 | ((abs >> 13) & 0x3ff));
  if (abs == 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7c00);
  const int exp = static_cast<int>(abs >> 23) - 127;
  if (exp > 15) return static_cast<std::uint16_t>(sign | (toward_zero ? 0x7bff : 0x7c00));
  std::uint32_t mant = (abs & 0x7fffff) | 0x800000;  // 24 bits with the hidden one
  int shift;                                          // bits to drop from the 24-bit significand
  std::uint32_t base;                                 // exponent field of the result
  if (exp >= -14) {
    shift = 13;
    base = static_cast<std::uint32_t>(exp + 15) << 10;
    mant &= 0x7fffff;  // normal: the hidden one lives in the exponent field
  } else {
    if (exp < -25) return sign;  // below half the smallest denormal: rounds to zero
    shift = 13 + (-14 - exp);
    base = 0;
  }
  std::uint32_t q = mant >> shift, rest = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (!toward_zero && (rest > half || (rest == half && (q & 1)))) ++q;  // may carry into the exponent: still right
  return static_cast<std::uint16_t>(sign | (base + q));
}

// Element formats by cbsz (A) / blgp (B): 0 E4M3, 1 E5M2, 4 E2M1 (2 E2M3 and
// 3 E3M2, the FP6 forms, are not implemented).  OCP MX rules: E4M3 has no
// infinity (S.1111.111 is NaN, max 448); E5M2 has infinities and NaNs;
// E2M1 has neither.  Scales are E8M0: 2^(code-127), code 255 is NaN.
inline float decode_f8f6f4(int format, std::uint32_t code) {
  const bool neg = format == 4 ? (code & 8) : (code & 0x80);
  float v;
  if (format == 0) {
    std::uint32_t e = (code >> 3) & 15, m = code & 7;
    if (e == 15 && m == 7) return std::numeric_limits<float>::quiet_NaN();
    v = e == 0 ? std::ldexp(static_cast<float>(m), -9) : std::ldexp(static_cast<float>(8 + m), static_cast<int>(e) - 10);
  } else if (format == 1) {
    std::uint32_t e = (code >> 2) & 31, m = code & 3;
    if (e == 31) return m ? std::numeric_limits<float>::quiet_NaN() : (neg ? -INFINITY : INFINITY);
    v = e == 0 ? std::ldexp(static_cast<float>(m), -16) : std::ldexp(static_cast<float>(4 + m), static_cast<int>(e) - 17);
  } else {
    std::uint32_t e = (code >> 1) & 3, m = code & 1;
    v = e == 0 ? 0.5f * static_cast<float>(m) : std::ldexp(static_cast<float>(2 + m), static_cast<int>(e) - 2);
  }
  return neg ? -v : v;
}

inline float decode_e8m0(std::uint32_t code) {
  return code == 255 ? std::numeric_limits<float>::quiet_NaN() : std::ldexp(1.0f, static_cast<int>(code) - 127);
}

// f32 to OCP E4M3 (E4M3FN: bias 7, max 448, S.1111.111 NaN, no infinity),
// round to nearest even, subnormals kept, the sign of zero kept.  `overflow`
// is set (and 0 returned) for a NaN, an infinity or a magnitude that rounds
// beyond 448 (above 464; 464 itself ties to 448, the even code): what the
// hardware gives for those without clamp is not settled from a public source.
inline std::uint8_t encode_e4m3_rne(float x, bool& overflow) {
  overflow = false;
  const std::uint8_t sign = std::signbit(x) ? 0x80 : 0;
  const float a = std::fabs(x);
  if (!std::isfinite(a)) return overflow = true, 0;
  if (a == 0) return sign;
  int e = std::ilogb(a);
  if (e < -6) {  // subnormal: multiples of 2^-9 (a 2^-9 * 8 result is the smallest normal, code 8)
    return static_cast<std::uint8_t>(sign | static_cast<std::uint32_t>(std::rint(std::ldexp(a, 9))));
  }
  std::uint32_t q = static_cast<std::uint32_t>(std::rint(std::ldexp(a, 3 - e)));  // 8..16, exact scaling
  if (q == 16) q = 8, ++e;
  const int field = e + 7;
  if (field > 15 || (field == 15 && q == 15)) return overflow = true, 0;
  return static_cast<std::uint8_t>(sign | static_cast<std::uint32_t>(field) << 3 | (q - 8));
}

// f32 to an unsigned byte as v_cvt_pk_u8_f32 converts it: round to nearest
// even (the MODE register's default rounding), then clamp to [0, 255]; NaN
// gives 0.  The ISA's pseudo-code only names f32_to_u8; the rounding from
// MODE is CLRX's GCN description and AMD's rocjitsu conversions measured on
// gfx1201 ([M], another generation; gfx950 assumed the same, [I]).
inline std::uint32_t u8_rne_clamped(float x) {
  if (std::isnan(x)) return 0;
  const float r = std::nearbyint(x);  // the default floating-point environment: to nearest even
  return r <= 0.0f ? 0u : r >= 255.0f ? 255u : static_cast<std::uint32_t>(r);
}

// f32 to OCP E2M1 (FP4: 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives; no
// infinity, no NaN), round to nearest even code ([O] CDNA4 ISA: "round toward
// nearest even"); magnitudes past 6 saturate to 6 ([I]: E2M1 has nothing
// larger and the ISA's text says no more).  `nan` is set for a NaN input.
inline std::uint32_t encode_e2m1_rne(float x, bool& nan) {
  nan = std::isnan(x);
  if (nan) return 0;
  static constexpr float kValues[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  const std::uint32_t sign = std::signbit(x) ? 8u : 0u;
  const float a = std::fabs(x);
  std::uint32_t code = 7;
  for (std::uint32_t c = 0; c < 7; ++c) {
    const float mid = 0.5f * (kValues[c] + kValues[c + 1]);  // exact: every midpoint is a short binary fraction
    if (a < mid || (a == mid && (c & 1) == 0)) {
      code = c;
      break;
    }
  }
  return sign | code;
}

// The power of two a scaled conversion applies: 2^(e - 127) for the biased
// exponent e of the f32 scale operand, its sign and mantissa ignored ([O]
// CDNA4 ISA: "the exponent provided by the ... single-precision float input").
// e = 255 (an infinite or NaN scale) is reported by the caller.
inline int scale_exponent(std::uint32_t scale_bits) { return static_cast<int>((scale_bits >> 23) & 0xffu); }

// gfx942's FP8 (the FNUZ variants): one NaN code 0x80, no infinities, no -0;
// E4M3FNUZ has bias 8 (max 240), E5M2FNUZ bias 16 (max 57344).
inline float decode_fp8_fnuz(bool e5m2, std::uint32_t code) {
  if (code == 0x80) return std::numeric_limits<float>::quiet_NaN();
  const bool neg = code & 0x80;
  const int mbits = e5m2 ? 2 : 3, bias = e5m2 ? 16 : 8;
  const std::uint32_t e = (code & 0x7f) >> mbits, m = code & ((1u << mbits) - 1);
  float v = e == 0 ? std::ldexp(static_cast<float>(m), 1 - bias - mbits)
                   : std::ldexp(static_cast<float>((1u << mbits) + m), static_cast<int>(e) - bias - mbits);
  return neg ? -v : v;
}

}  // namespace tilelab::emu
