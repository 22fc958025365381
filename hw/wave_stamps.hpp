// Per-wave timestamps recorded by the TILELAB_WAVE_STAMPS build of a kernel
// (the record layout is documented in kernels/common/tilelab_hip.hpp): each
// wave's entry and exit on the core clock and on the constant-rate counter,
// and where it ran.  Decoding needs only the vendor and the device's rates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tilelab::hw {

constexpr std::size_t kWaveStampWords = 8;  // 64-byte records

struct WaveStamp {
  std::uint32_t block_x = 0, block_y = 0, wave = 0;  // wave within its block
  // Where it ran.  AMD (s_getreg HW_ID / XCC_ID): xcc, se, sh, cu, simd and
  // the wave slot; NVIDIA: cu = SM (%smid), simd = %warpid % 4 (the SM's
  // sub-partition), slot = %warpid / 4; xcc, se, sh = 0.
  int xcc = 0, se = 0, sh = 0, cu = 0, simd = 0, slot = 0;
  std::uint64_t clock_start = 0, clock_end = 0;  // core clock (s_memtime / clock64)
  std::uint64_t timer_start = 0, timer_end = 0;  // constant-rate counter (s_memrealtime / %globaltimer)
  // The CU (SM) id flattened over the chip: AMD ((xcc x 8 + se) x 2 + sh) x 16 + cu
  // (HW_ID's 3-bit SE, 1-bit SH and 4-bit CU fields), NVIDIA the SM.
  int chip_cu() const { return ((xcc * 8 + se) * 2 + sh) * 16 + cu; }
};

// The records of `waves` waves, raw (kWaveStampWords words each), decoded.
// `vendor` is "amd" or "nvidia".  Throws std::runtime_error naming the first
// wave whose record was never written (all zero) or runs backwards in time.
std::vector<WaveStamp> decode_wave_stamps(const std::vector<std::uint64_t>& raw, const std::string& vendor);

// Ticks of a counter of rate `khz` as nanoseconds.
inline double ticks_to_ns(std::uint64_t ticks, double khz) { return static_cast<double>(ticks) * 1e6 / khz; }

}  // namespace tilelab::hw
