#include "sim/timing/mfma_hazards.hpp"

#include <algorithm>

namespace tilelab::timing {

void MfmaHazards::check(const VectorUse& use, std::uint64_t pc, std::uint64_t cycle, std::uint32_t wave,
                        std::vector<Hazard>& out) {
  const int period = t_->issue_period;
  auto wait_states = [&](std::uint64_t since) { return static_cast<int>((cycle - since) / static_cast<std::uint64_t>(period)) - 1; };
  if (use.mfma)
    for (const ValuWrite& v : valu_writes_) {
      const int got = wait_states(v.cycle);
      if (v.exec && got < kValuExecToMfma) {
        out.push_back({pc, v.pc, wave, cycle, kValuExecToMfma, got, "VALU writes EXEC -> MFMA"});
        continue;
      }
      if (got >= kValuWriteToMfmaRead) continue;
      bool reads = false;
      for (const VRegs& w : *v.regs) {
        for (const VRegs& r : use.reads) reads = reads || r.overlaps(w);
        reads = reads || (use.has_srcc && use.srcc.overlaps(w));
      }
      if (reads) out.push_back({pc, v.pc, wave, cycle, kValuWriteToMfmaRead, got, "VALU write -> read by an MFMA"});
    }
  if (in_flight_.empty()) return;
  // The longest rule is 20 wait states (a 16-pass MFMA): older entries cannot matter.
  std::erase_if(in_flight_, [&](const InFlight& f) { return (cycle - f.cycle) / static_cast<std::uint64_t>(period) > 40; });
  for (const InFlight& f : in_flight_) {
    const int got = wait_states(f.cycle);
    auto report = [&](int required, const char* rule) {
      if (got < required) out.push_back({pc, f.pc, wave, cycle, required, got, rule});
    };
    const int read_rule = t_->read_wait_states(f.passes);
    for (const VRegs& r : use.reads)
      if (r.overlaps(f.d)) {
        report(read_rule, use.mfma ? "MFMA D -> SrcA/B of a later MFMA" : "MFMA D -> read by a VALU/memory instruction");
        break;
      }
    if (use.has_srcc && use.srcc.overlaps(f.d)) {
      if (use.srcc == f.d && use.passes == f.passes) report(f.passes == 2 ? 2 : 0, "MFMA D -> SrcC (same registers)");
      else report(f.passes + t_->mfma_srcc_overlap_extra, "MFMA D -> SrcC (partly overlapping)");
    }
    if (!use.mfma)
      for (const VRegs& w : use.writes)
        if (w.overlaps(f.d)) {
          report(f.passes + kXdlDOverwriteExtra, "MFMA D -> overwritten by a VALU/memory instruction");
          break;
        }
  }
}

void MfmaHazards::issued(const VectorUse& use, std::uint64_t pc, std::uint64_t cycle) {
  if (use.mfma) {
    for (const VRegs& d : use.writes) in_flight_.push_back({d, use.passes, pc, cycle});
    return;
  }
  if (!use.valu || (use.writes.empty() && !use.writes_exec)) return;
  // Older writes cannot matter once the longest rule (4 wait states) has passed.
  const std::uint64_t window = static_cast<std::uint64_t>(t_->issue_period) * (kValuExecToMfma + 1);
  std::erase_if(valu_writes_, [&](const ValuWrite& v) { return cycle - v.cycle > window; });
  valu_writes_.push_back({&use.writes, use.writes_exec, pc, cycle});
}

}  // namespace tilelab::timing
