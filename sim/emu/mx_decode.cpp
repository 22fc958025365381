#include "sim/emu/mx_decode.hpp"

// GCC 12's AVX-512 intrinsics warn about their own _mm512_undefined results.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include "sim/emu/float_bits.hpp"

namespace tilelab::emu {
namespace {

using u32 = std::uint32_t;

// Every code's value, from decode_f8f6f4 once: the scalar path is a lookup.
struct Tables {
  float e4m3[256], e5m2[256], e2m1[16];
  Tables() {
    for (u32 c = 0; c < 256; ++c) e4m3[c] = decode_f8f6f4(0, c), e5m2[c] = decode_f8f6f4(1, c);
    for (u32 c = 0; c < 16; ++c) e2m1[c] = decode_f8f6f4(4, c);
  }
};
const Tables& tables() {
  static const Tables t;
  return t;
}

// FP8 without a table: the code's 7 magnitude bits placed at the top of an
// f32's exponent and mantissa (E4M3 from bit 20, E5M2 from bit 21) read as
// an f32 that is 2^(127 - bias) times too small, for subnormal codes too
// (the f32 is then subnormal with the same mantissa), so one exact multiply
// by 2^(127 - bias) gives the value; the sign bit is moved to bit 31.  The
// codes with an all-ones exponent (E4M3's NaN, E5M2's infinities and NaNs)
// take decode_f8f6f4's values: +qNaN for every NaN, a signed infinity.
__attribute__((target("avx512f"))) inline __m512 decode_fp8(__m512i code, bool e5m2) {
  const __m512i magnitude = _mm512_and_si512(code, _mm512_set1_epi32(0x7f));
  const __m512i sign = _mm512_slli_epi32(_mm512_and_si512(code, _mm512_set1_epi32(0x80)), 24);
  const __m512i placed = e5m2 ? _mm512_slli_epi32(magnitude, 21) : _mm512_slli_epi32(magnitude, 20);
  const __m512 scale = _mm512_castsi512_ps(_mm512_set1_epi32((e5m2 ? 127 + 127 - 15 : 127 + 127 - 7) << 23));
  __m512 value = _mm512_mul_ps(_mm512_castsi512_ps(placed), scale);
  value = _mm512_castsi512_ps(_mm512_or_si512(_mm512_castps_si512(value), sign));
  const __m512 nan = _mm512_castsi512_ps(_mm512_set1_epi32(0x7fc00000));
  if (!e5m2) return _mm512_mask_blend_ps(_mm512_cmpeq_epi32_mask(magnitude, _mm512_set1_epi32(0x7f)), value, nan);
  // E5M2: exponent 31 is infinity (mantissa 0, signed) or NaN.
  const __mmask16 special = _mm512_cmpge_epi32_mask(magnitude, _mm512_set1_epi32(0x7c));
  const __mmask16 is_nan = _mm512_cmpgt_epi32_mask(magnitude, _mm512_set1_epi32(0x7c));
  const __m512 inf = _mm512_castsi512_ps(_mm512_or_si512(_mm512_set1_epi32(0x7f800000), sign));
  value = _mm512_mask_blend_ps(special, value, inf);
  return _mm512_mask_blend_ps(is_nan, value, nan);
}

// Width, slot position and format are template arguments: a division by a
// run-time slots-per-register cost more than the decode itself.
template <MxFormat F, int rows>
__attribute__((target("avx512f"))) void decode_avx512(const u32* const registers[8], const int k[32],
                                                      const float* factor, float* out) {
  constexpr bool fp4 = F == MxFormat::e2m1;
  constexpr int width = fp4 ? 4 : 8, per_register = 32 / width;
  const __m512i mask = _mm512_set1_epi32(fp4 ? 15 : 255);
  const __m512 e2m1 = _mm512_loadu_ps(tables().e2m1);
  for (int s = 0; s < 32; ++s) {
    const u32* codes = registers[s / per_register];
    const __m128i count = _mm_cvtsi32_si128(width * (s % per_register));
    float* row_out = out + rows * k[s];
    const float* row_factor = factor ? factor + rows * (k[s] / 32) : nullptr;
#pragma GCC unroll 2
    for (int i = 0; i < rows; i += 16) {
      const __m512i code = _mm512_and_si512(_mm512_srl_epi32(_mm512_loadu_si512(codes + i), count), mask);
      // FP4's 16 values fit one register: a permute is the lookup.
      __m512 value = fp4 ? _mm512_permutexvar_ps(code, e2m1) : decode_fp8(code, F == MxFormat::e5m2);
      if (row_factor) value = _mm512_mul_ps(value, _mm512_loadu_ps(row_factor + i));
      _mm512_storeu_ps(row_out + i, value);
    }
  }
}

}  // namespace

bool host_has_avx512f() {
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f");
  }();
  return has;
}

void decode_mx_slots(MxFormat format, const u32* const registers[8], int rows, const int k[32], const float* factor,
                     float* out, bool vector) {
  if (vector && host_has_avx512f() && (rows == 16 || rows == 32)) {
    auto decode = [&]<int R>() {
      if (format == MxFormat::e2m1) return decode_avx512<MxFormat::e2m1, R>(registers, k, factor, out);
      if (format == MxFormat::e5m2) return decode_avx512<MxFormat::e5m2, R>(registers, k, factor, out);
      return decode_avx512<MxFormat::e4m3, R>(registers, k, factor, out);
    };
    return rows == 16 ? decode.template operator()<16>() : decode.template operator()<32>();
  }
  const Tables& t = tables();
  const float* table = format == MxFormat::e4m3 ? t.e4m3 : format == MxFormat::e5m2 ? t.e5m2 : t.e2m1;
  const int width = format == MxFormat::e2m1 ? 4 : 8, per_register = 32 / width;
  const u32 mask = (1u << width) - 1;
  for (int s = 0; s < 32; ++s) {
    const u32* codes = registers[s / per_register];
    const int shift = width * (s % per_register);
    for (int row = 0; row < rows; ++row) {
      const float value = table[(codes[row] >> shift) & mask];
      out[rows * k[s] + row] = factor ? value * factor[rows * (k[s] / 32) + row] : value;
    }
  }
}

}  // namespace tilelab::emu
