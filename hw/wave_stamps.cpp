#include "hw/wave_stamps.hpp"

#include <stdexcept>

namespace tilelab::hw {

namespace {
int bits(std::uint64_t v, int lo, int n) { return static_cast<int>((v >> lo) & ((std::uint64_t{1} << n) - 1)); }
}  // namespace

std::vector<WaveStamp> decode_wave_stamps(const std::vector<std::uint64_t>& raw, const std::string& vendor) {
  if (vendor != "amd" && vendor != "nvidia") throw std::runtime_error("wave stamps: unknown vendor '" + vendor + "'");
  std::vector<WaveStamp> out(raw.size() / kWaveStampWords);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::uint64_t* r = raw.data() + i * kWaveStampWords;
    WaveStamp& w = out[i];
    if (r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 0)
      throw std::runtime_error("wave stamps: record " + std::to_string(i) + " was never written (is the kernel the "
                               "TILELAB_WAVE_STAMPS build, and the grid the one it was launched with?)");
    w.clock_start = r[0];
    w.clock_end = r[1];
    w.timer_start = r[2];
    w.timer_end = r[3];
    if (w.clock_end < w.clock_start || w.timer_end < w.timer_start)
      throw std::runtime_error("wave stamps: record " + std::to_string(i) + " ends before it starts");
    w.block_x = static_cast<std::uint32_t>(r[6]);
    w.block_y = static_cast<std::uint32_t>(r[6] >> 32);
    w.wave = static_cast<std::uint32_t>(r[7]);
    if (vendor == "amd") {  // HW_ID: WAVE[3:0] SIMD[5:4] CU[11:8] SH[12] SE[15:13]; XCC_ID[3:0]
      w.slot = bits(r[4], 0, 4);
      w.simd = bits(r[4], 4, 2);
      w.cu = bits(r[4], 8, 4);
      w.sh = bits(r[4], 12, 1);
      w.se = bits(r[4], 13, 3);
      w.xcc = bits(r[5], 0, 4);
    } else {
      w.cu = static_cast<int>(r[4]);
      w.simd = static_cast<int>(r[5] % 4);
      w.slot = static_cast<int>(r[5] / 4);
    }
  }
  return out;
}

}  // namespace tilelab::hw
