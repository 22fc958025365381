// The OCP microscaling (MX) element and scale formats, decoded and encoded
// bit-exactly on the host: the CPU references of the scaled GEMMs and the
// quantizers that prepare their operands.
//
//   E4M3 (fp8): bias 7, no infinities; S.1111.111 is NaN; largest 448.
//   E5M2 (bf8): bias 15, IEEE-like: S.11111.00 is ±inf, S.11111.xx (xx≠0) NaN; largest 57344.
//   E2M1 (fp4): bias 1, no infinities and no NaN; values 0, 0.5, 1, 1.5, 2, 3, 4, 6.
//   E8M0 (scale): 2^(e−127) for e in 0..254; 0xFF is NaN; no sign, no zero.
// Subnormals are kept (E4M3 down to 2^-9, E5M2 to 2^-16, E2M1 0.5).
//
// Encoding (float → format) rounds to nearest, ties to even, and saturates:
// a finite value beyond the largest magnitude becomes the largest magnitude
// (the OCP spec's saturating conversion, what quantizers use).  Infinities
// saturate the same way for E4M3 and E2M1 (they have no infinity) and stay
// infinite for E5M2.  NaN becomes the format's NaN (E4M3 0x7F, E5M2 0x7F,
// sign kept); E2M1 has no NaN: quantize_mx refuses NaN input for it (encode
// itself returns +0 there, so call it through quantize_mx).
#pragma once
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace tilelab::kernels {

enum class MxElement { E4M3, E5M2, E2M1 };

struct MxFormatInfo {
  int exponent_bits, mantissa_bits, bias;
  float max_normal;
  int emax;  // exponent of the largest power of two <= max_normal (OCP: 8, 15, 2)
};

inline constexpr MxFormatInfo info(MxElement f) {
  switch (f) {
    case MxElement::E4M3: return {4, 3, 7, 448.f, 8};
    case MxElement::E5M2: return {5, 2, 15, 57344.f, 15};
    default: return {2, 1, 1, 6.f, 2};
  }
}

inline constexpr int bits_of(MxElement f) { return f == MxElement::E2M1 ? 4 : 8; }

// 2^n for n in f32's normal range (-126..127), exactly: built from its
// exponent bits, because std::ldexp (a libm call) was most of the time it
// took to quantize a large operand.
inline float pow2(int n) { return std::bit_cast<float>(static_cast<std::uint32_t>(n + 127) << 23); }

// Value of a code (the low bits_of(f) bits of `code`).
inline float decode(MxElement f, unsigned code) {
  const MxFormatInfo i = info(f);
  const int bits = bits_of(f);
  code &= (1u << bits) - 1;
  const bool negative = (code >> (bits - 1)) & 1;
  const unsigned e = (code >> i.mantissa_bits) & ((1u << i.exponent_bits) - 1);
  const unsigned m = code & ((1u << i.mantissa_bits) - 1);
  const float sign = negative ? -1.f : 1.f;
  if (f == MxElement::E4M3 && e == 15 && m == 7) return std::copysign(NAN, sign);
  if (f == MxElement::E5M2 && e == 31) return m == 0 ? sign * INFINITY : std::copysign(NAN, sign);
  const float frac = static_cast<float>(m) / static_cast<float>(1u << i.mantissa_bits);
  if (e == 0) return sign * (frac * pow2(1 - i.bias));  // subnormal (or zero)
  return sign * ((1.f + frac) * pow2(static_cast<int>(e) - i.bias));
}

// Nearest code, ties to even, saturating (see the header comment).
inline unsigned encode(MxElement f, float x) {
  const MxFormatInfo i = info(f);
  const int bits = bits_of(f);
  const unsigned sign = std::signbit(x) ? 1u << (bits - 1) : 0u;
  if (std::isnan(x)) return f == MxElement::E2M1 ? 0u : sign | 0x7fu;
  float a = std::fabs(x);
  if (f == MxElement::E5M2 && std::isinf(a)) return sign | 0x7cu;
  if (a >= i.max_normal) {
    // Beyond the largest finite: saturate.  (For E5M2 a value past
    // max + half an ulp would round to inf in IEEE; saturating quantizers clamp.)
    a = i.max_normal;
  }
  // Quantum at this magnitude: subnormal spacing below 2^(1-bias).  The
  // binade of a from its exponent bits (a >= 0; an f32 subnormal or zero
  // lies below every format's normals, where e is clamped anyway).
  int e = static_cast<int>(std::bit_cast<std::uint32_t>(a) >> 23) - 127;  // a in [2^e, 2^(e+1))
  if (e < 1 - i.bias) e = 1 - i.bias;
  const float quantum = pow2(e - i.mantissa_bits);
  const float q = std::nearbyint(a / quantum);  // ties to even under the default rounding mode
  float r = q * quantum;
  if (r > i.max_normal) r = i.max_normal;
  // r lies on the format's grid: its code is the count of subnormal steps
  // below the smallest normal, else the biased exponent and the mantissa.
  if (r < pow2(1 - i.bias)) return sign | static_cast<unsigned>(r / pow2(1 - i.bias - i.mantissa_bits));
  const int re = static_cast<int>(std::bit_cast<std::uint32_t>(r) >> 23) - 127;
  const unsigned m = static_cast<unsigned>(r / pow2(re) * static_cast<float>(1u << i.mantissa_bits)) - (1u << i.mantissa_bits);
  return sign | static_cast<unsigned>(re + i.bias) << i.mantissa_bits | m;
}

// E8M0 scale: 2^(code − 127); 0xFF is NaN.
inline float decode_e8m0(unsigned code) {
  code &= 0xff;
  if (code == 0xff) return NAN;
  return code == 0 ? std::bit_cast<float>(0x00400000u) : pow2(static_cast<int>(code) - 127);  // 2^-127: an f32 subnormal
}

// The OCP MX scale of a block: 2^(floor(log2(amax)) − emax of the element
// format), as an E8M0 code (clamped to 0..254; an all-zero block gets 2^-127).
inline unsigned mx_scale_for(MxElement f, float amax) {
  if (!(amax > 0.f) || std::isinf(amax)) return amax > 0.f ? 254u : 0u;
  int exp;
  std::frexp(amax, &exp);
  const int e = exp - 1 - info(f).emax + 127;
  return e < 0 ? 0u : e > 254 ? 254u : static_cast<unsigned>(e);
}

// Quantizes a row-major rows × k matrix with one E8M0 scale per 32
// consecutive values of a row (k % 32 == 0): codes[r*k + i] is the element
// code (one per byte, FP4 in the low nibble), scales[r*(k/32) + b] the scale.
// Each value becomes encode(x / scale).  Throws std::invalid_argument naming
// the row and column of a NaN when the format has no NaN (E2M1), and when
// k % 32 != 0.
void quantize_mx(MxElement f, const float* x, int rows, int k, std::uint8_t* codes, std::uint8_t* scales);

// Two FP4 codes per byte, element 2i in the low nibble (the MFMA operand order).
void pack_fp4(const std::uint8_t* codes, std::size_t n, std::uint8_t* packed);

}  // namespace tilelab::kernels
