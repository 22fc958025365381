// Bit-level float helpers shared by the vector and MFMA semantics.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

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

}  // namespace tilelab::emu
