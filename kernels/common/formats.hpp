// Host-side number formats shared by the CPU references (bit-exact).
#pragma once
#include <bit>
#include <cstdint>

namespace tilelab::kernels {

// bf16 is the top half of an IEEE binary32.
inline float bf16_to_float(std::uint16_t b) { return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16); }

// Round to nearest, ties to even, as the hardware's conversions do (and as
// clang lowers a float -> __bf16 conversion).  NaN stays NaN (quietened);
// overflow rounds to infinity.
inline std::uint16_t float_to_bf16(float f) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((u >> 16) | 0x0040u);
  const std::uint32_t lsb = (u >> 16) & 1u;
  return static_cast<std::uint16_t>((u + 0x7fffu + lsb) >> 16);
}

}  // namespace tilelab::kernels
