#include "sim/timing/loop_bound.hpp"

#include <algorithm>
#include <string_view>

#include "sim/emu/operands.hpp"

namespace tilelab::timing {

namespace {

// Bytes per lane of a VMEM or LDS-DMA mnemonic (global_load_dwordx4: 16).
int lane_bytes(std::string_view m) {
  if (m.find("dwordx4") != std::string_view::npos) return 16;
  if (m.find("dwordx3") != std::string_view::npos) return 12;
  if (m.find("dwordx2") != std::string_view::npos) return 8;
  if (m.find("dword") != std::string_view::npos) return 4;
  if (m.find("short") != std::string_view::npos) return 2;
  if (m.find("byte") != std::string_view::npos) return 1;
  return 4;
}

// The LDS instruction the bank model costs, and how many of it: ds_read2_b64
// is two ds_read_b64 (as the emulator costs it).
std::pair<std::string, int> lds_access(const std::string& base) {
  for (const char* two : {"ds_read2st64_", "ds_read2_", "ds_write2st64_", "ds_write2_"}) {
    const std::string t(two);
    if (base.rfind(t, 0) == 0) {
      const bool read = t.find("read") != std::string::npos;
      return {std::string(read ? "ds_read_" : "ds_write_") + base.substr(t.size()), 2};
    }
  }
  return {base, 1};
}

}  // namespace

double loop_bound_memory_share(const arch::Arch& a) { return arch::memory_bytes_per_clock_per_cu(a, 1e9); }

std::vector<LoopBound> loop_bounds(const isa::Program& p, const arch::Arch& a) {
  const double share = loop_bound_memory_share(a);
  const double pass_clocks =
      a.has_timing ? static_cast<double>(a.lds.banks * a.lds.bank_bytes) / a.timing.lds_port_bytes_per_clock : 1;
  const int simds = std::max(1, a.simds_per_cu);
  std::vector<LoopBound> out;
  for (const auto& loop : p.loops) {
    LoopBound b;
    b.head = loop.head, b.latch = loop.latch;
    for (std::size_t i = loop.head; i <= loop.latch; ++i) {
      const isa::Instruction& in = p.instructions[i];
      if (in.cls != isa::InstClass::MFMA && in.cls != isa::InstClass::LDS && in.cls != isa::InstClass::VMEM_LOAD &&
          in.cls != isa::InstClass::VMEM_STORE && in.cls != isa::InstClass::LDS_DMA)
        continue;
      emu::ParsedText t;
      try {
        t = emu::parse_text(in.text);
      } catch (const emu::EmuError&) {
        t.base = std::string(in.mnemonic());
      }
      if (in.cls == isa::InstClass::MFMA) {
        const arch::MfmaInstruction* m = a.find_mfma(t.base);
        if (!m) {
          ++b.unknown_mfma;
          continue;
        }
        b.mfma_cycles += arch::mfma_issue_cycles(*m, t.mods.cbsz, t.mods.blgp);
      } else if (in.cls == isa::InstClass::LDS) {
        const auto [name, count] = lds_access(t.base);
        int passes = 1;
        const auto it =
            std::find_if(a.instructions.begin(), a.instructions.end(), [&](const auto& x) { return x.name == name; });
        if (it != a.instructions.end()) passes = static_cast<int>(it->phases.size());
        else ++b.unknown_lds;
        b.lds_cycles += count * passes * pass_clocks * 2;  // two SIMDs share a pair's port
      } else {
        b.global_bytes += 64.0 * lane_bytes(in.mnemonic());
      }
    }
    b.global_cycles = b.global_bytes * simds / share;
    const std::pair<double, const char*> parts[] = {
        {b.mfma_cycles, "MFMA"}, {b.lds_cycles, "LDS"}, {b.global_cycles, "global memory"}};
    const auto* most = std::max_element(std::begin(parts), std::end(parts),
                                        [](const auto& x, const auto& y) { return x.first < y.first; });
    b.cycles = most->first;
    b.limiter = most->first > 0 ? most->second : "nothing";
    out.push_back(b);
  }
  return out;
}

}  // namespace tilelab::timing
