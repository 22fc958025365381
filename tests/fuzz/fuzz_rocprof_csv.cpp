// libFuzzer target: any bytes given to the rocprofv3 CSV reader must give a
// table whose rows all have the header's width, or a FormatError naming the
// file — never a crash or UB; every field read as a number either parses or
// throws FormatError; read as rocprof-compute's pmc_perf table or sysinfo,
// the table gives dispatches or a FormatError.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "traces/rocprof/compute_workload.hpp"
#include "traces/rocprof/csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tilelab::traces::rocprof;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const CsvTable t = parse_csv(text, "fuzz.csv");
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      if (t.rows[r].size() != t.header.size()) std::abort();
      for (std::size_t c = 0; c < t.header.size(); ++c) {
        try {
          (void)number_at(t, r, c);
          (void)integer_at(t, r, c);
        } catch (const FormatError&) {
        }
      }
    }
    try {
      Profile p;
      add_pmc_perf(p, t);
      if (p.dispatches.size() != t.rows.size()) std::abort();
    } catch (const FormatError&) {
    }
    try {
      const GpuInfo g = read_sysinfo(t);
      if (g.cus <= 0 || g.xccs <= 0) std::abort();
    } catch (const FormatError&) {
    }
  } catch (const FormatError&) {
  }
  return 0;
}
