#include "kernels/chip_bound.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

namespace tilelab::kernels {

namespace {

// What the workgroups one XCD runs read and write.
struct XcdTraffic {
  long long workgroups = 0;
  double read_bytes = 0;    // every tile of every workgroup (no L1 sharing)
  double unique_bytes = 0;  // each tile once (one L2 for the XCD)
  double written_bytes = 0;
};

std::vector<XcdTraffic> traffic_per_xcd(const TileWork& work, int xcds) {
  std::vector<XcdTraffic> t(static_cast<std::size_t>(xcds));
  std::vector<std::unordered_set<std::uint64_t>> seen(static_cast<std::size_t>(xcds));
  for (long long w = 0; w < work.workgroups; ++w) {
    const std::size_t x = static_cast<std::size_t>(w % xcds);  // the model's dispatch: linear id to XCD id mod XCDs
    XcdTraffic& xt = t[x];
    ++xt.workgroups;
    xt.written_bytes += static_cast<double>(work.bytes_written);
    for (const GlobalTile& tile : work.tiles_read(w)) {
      xt.read_bytes += static_cast<double>(tile.bytes);
      if (seen[x].insert(tile.key).second) xt.unique_bytes += static_cast<double>(tile.bytes);
    }
  }
  return t;
}

// The LDS passes one CU's ports move per clock, by the cycle model's own rule:
// a port per timing.simds_per_lds_port SIMDs, a pass (every bank once) in
// banks x bank bytes / the port's bytes per clock (sim/timing/lds_port.hpp).
double lds_passes_per_clock(const arch::Arch& a) {
  const double pass_clocks =
      std::max(1, a.lds.banks * a.lds.bank_bytes / std::max(1, a.timing.lds_port_bytes_per_clock));
  return (a.simds_per_cu / std::max(1, a.timing.simds_per_lds_port)) / pass_clocks;
}

}  // namespace

ChipBound chip_bound(const TileWork& work, const arch::Arch& a, int waves_per_workgroup, double mfma_cycles,
                     double lds_cycles) {
  if (!a.has_timing || !a.has_memory)
    throw std::invalid_argument(a.name + " has no [timing] and [memory] parts: no whole-chip bound");
  if (!work.tiles_read) throw std::invalid_argument("the spec does not say which global tiles its workgroups read");
  const arch::MemorySystem& m = a.memory;
  ChipBound b;
  b.workgroups = work.workgroups;
  b.xcds = arch::chip_xcds(a);
  b.cus_per_xcd = arch::chip_cus(a) / b.xcds;
  b.clock_mhz = a.timing.clock_mhz;
  const std::vector<XcdTraffic> per_xcd = traffic_per_xcd(work, b.xcds);

  const double simds_per_workgroup = std::min(waves_per_workgroup, a.simds_per_cu);
  const double lds_rate = lds_passes_per_clock(a);  // per CU
  double mfma = 0, lds = 0, l2 = 0, fabric = 0, mall_bytes = 0;
  double l2_bytes = 0, fabric_bytes = 0;
  for (const XcdTraffic& x : per_xcd) {
    if (x.workgroups == 0) continue;
    const double n = static_cast<double>(x.workgroups), cus = std::min<double>(n, b.cus_per_xcd);
    mfma = std::max({mfma, mfma_cycles, n * mfma_cycles * simds_per_workgroup / (cus * a.simds_per_cu)});
    lds = std::max(lds, n * lds_cycles / (cus * lds_rate));
    const double reads = x.read_bytes / (m.l2_channels * m.l2_read_bytes_per_clock);
    const double writes = x.written_bytes / (m.l2_channels * m.l2_write_bytes_per_clock);
    if (std::max(reads, writes) > l2) l2 = std::max(reads, writes), l2_bytes = x.read_bytes + x.written_bytes;
    const double link = (x.unique_bytes + x.written_bytes) / m.fabric_bytes_per_clock;
    if (link > fabric) fabric = link, fabric_bytes = x.unique_bytes + x.written_bytes;
    mall_bytes += x.unique_bytes;
  }
  const double problem = static_cast<double>(work.problem_bytes);
  b.levels = {
      {"MFMA", 0, mfma, "the busiest XCD's MFMA cycles over its CUs' SIMDs"},
      {"LDS", 0, lds, "the busiest XCD's LDS passes over its CUs' ports"},
      {"L2", l2_bytes, l2, "the busiest XCD's L1 misses (no L1 sharing between workgroups)"},
      {"fabric", fabric_bytes, fabric, "the busiest XCD's link: its tiles once, and its writes"},
      {"MALL", mall_bytes, mall_bytes / (m.mall_channels * m.mall_channel_bytes_per_clock),
       "each XCD's tiles once (private L2s)"},
      {"HBM", problem, problem / arch::hbm_bytes_per_clock(a), "the problem's bytes once"},
  };
  const auto most = std::max_element(b.levels.begin(), b.levels.end(),
                                     [](const LevelBound& x, const LevelBound& y) { return x.cycles < y.cycles; });
  b.limiter = most->level;
  b.launch_cycles = m.launch_cycles;
  b.cycles = most->cycles + b.launch_cycles;
  return b;
}

}  // namespace tilelab::kernels
