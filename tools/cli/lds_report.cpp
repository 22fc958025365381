#include "tools/cli/lds_report.hpp"

#include <bit>
#include <sstream>

namespace tilelab::cli {

std::string lane_ranges(std::uint64_t mask) {
  std::string s;
  for (int l = 0; l < 64;) {
    if (!((mask >> l) & 1)) {
      ++l;
      continue;
    }
    int e = l;
    while (e + 1 < 64 && ((mask >> (e + 1)) & 1)) ++e;
    s += (s.empty() ? "" : ",") + std::to_string(l) + (e > l ? "-" + std::to_string(e) : "");
    l = e + 1;
  }
  return s.empty() ? "-" : s;
}

// Left-aligned column of the given width (at least one space after).
static std::string col(const std::string& v, std::size_t width) {
  return v + std::string(v.size() < width ? width - v.size() : 1, ' ');
}

std::string pass_table(const lds::Analysis& a) {
  std::ostringstream o;
  o << "  pass  lanes                     active  banks  ways  cycles\n";
  for (int p = 0; p < a.entries; ++p) {
    const lds::Pass& x = a.pass[p];
    o << "  " << col(std::to_string(p), 6) << col(lane_ranges(x.lanes), 26)
      << col(std::to_string(std::popcount(x.active)), 8) << col(std::to_string(x.banks), 7)
      << col(std::to_string(x.ways), 6) << x.ways << "\n";
  }
  return o.str();
}

std::string totals_line(const arch::Arch& arch, long long cycles, long long conflicts, int passes) {
  std::ostringstream o;
  if (arch.vendor == "nvidia")
    o << "wavefronts " << cycles << ", bank conflicts " << conflicts << " (Nsight Compute units), passes " << passes;
  else
    o << "LDS cycles " << cycles << ", conflict cycles " << conflicts << " (SQ_LDS_BANK_CONFLICT units), passes "
      << passes;
  return o.str();
}

std::string assumption_note(const arch::Arch& arch, const arch::LdsInstruction& ins) {
  if (ins.status != arch::Status::kAssumed) return "";
  return "note: the phases of " + ins.name + " on " + arch.name + " are not known; this uses an assumption (" +
         ins.source + ")\n";
}

}  // namespace tilelab::cli
