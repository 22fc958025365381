#include "sim/emu/lds_races.hpp"

namespace tilelab::emu {

void LdsRaceLog::add(LdsRace r) {
  ++count;
  if (first.size() >= kKept) return;
  for (const LdsRace& k : first)
    if (k.kind == r.kind && k.first_index == r.first_index && k.second_index == r.second_index) return;
  first.push_back(std::move(r));
}

LdsRaceCheck::LdsRaceCheck(std::size_t lds_bytes, std::array<std::uint32_t, 3> workgroup, LdsRaceLog& log)
    : shadow_((lds_bytes + 1) / 2), workgroup_(workgroup), log_(log) {}

void LdsRaceCheck::report(const char* kind, std::uint32_t halfword, std::uint32_t first_index, int first_wave,
                          int wave, std::uint32_t barriers, std::uint32_t index) {
  LdsRace r;
  r.kind = kind, r.address = 2 * halfword, r.first_index = first_index, r.second_index = index;
  r.first_wave = first_wave, r.second_wave = wave, r.barriers = barriers, r.workgroup = workgroup_;
  log_.add(std::move(r));
}

}  // namespace tilelab::emu
