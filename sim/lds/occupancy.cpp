#include "sim/lds/occupancy.hpp"

#include <algorithm>
#include <stdexcept>

namespace tilelab::lds {

namespace {

long long align_up(long long v, long long a) { return a > 0 ? (v + a - 1) / a * a : v; }

void check(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

}  // namespace

Occupancy occupancy(const arch::Arch& a, const KernelResources& k) {
  if (!a.has_registers) throw arch::ArchError(a.name + ": the occupancy model needs a [registers] description");
  const arch::Registers& r = a.registers;
  check(k.vgprs >= 0 && k.vgprs <= r.max_arch_vgprs, "--vgprs must be in [0, " + std::to_string(r.max_arch_vgprs) + "]");
  check(k.agprs >= 0 && k.agprs <= r.max_agprs, "--agprs must be in [0, " + std::to_string(r.max_agprs) + "]");
  check(k.sgprs >= 0 && k.sgprs <= r.max_sgprs, "--sgprs must be in [0, " + std::to_string(r.max_sgprs) + "]");
  check(k.lds_bytes >= 0 && k.lds_bytes <= a.lds.bytes_per_cu,
        "--lds must be in [0, " + std::to_string(a.lds.bytes_per_cu) + "] bytes");
  check(k.workgroup_size >= 1 && k.workgroup_size <= a.max_workgroup_size,
        "--wg-size must be in [1, " + std::to_string(a.max_workgroup_size) + "]");

  Occupancy o;
  o.waves_per_workgroup = (k.workgroup_size + a.wave_size - 1) / a.wave_size;
  const int simds = a.simds_per_cu, wpw = o.waves_per_workgroup;
  // Waves of one workgroup spread over the SIMDs; a per-SIMD wave limit w
  // allows floor(w * simds / waves per workgroup) workgroups per CU.
  auto from_waves_per_simd = [&](int w) { return w * simds / wpw; };

  o.limits.push_back({"wave slots", from_waves_per_simd(a.wave_slots_per_simd),
                      std::to_string(a.wave_slots_per_simd) + " waves per SIMD"});

  long long regs = align_up(align_up(k.vgprs, r.agpr_offset_alignment) + k.agprs, r.vgpr_granule);
  int by_vgpr = regs == 0 ? a.wave_slots_per_simd : static_cast<int>(r.vgprs_per_simd_lane / regs);
  o.limits.push_back({"VGPRs+AGPRs", from_waves_per_simd(std::min(by_vgpr, a.wave_slots_per_simd)),
                      std::to_string(regs) + " allocated per lane of " + std::to_string(r.vgprs_per_simd_lane) +
                          " -> " + std::to_string(by_vgpr) + " waves per SIMD"});

  int by_sgpr = a.wave_slots_per_simd;
  for (const auto& [limit, waves] : r.sgpr_occupancy)
    if (k.sgprs <= limit) {
      by_sgpr = waves;
      break;
    }
  by_sgpr = std::min(by_sgpr, a.wave_slots_per_simd);
  o.limits.push_back({"SGPRs", from_waves_per_simd(by_sgpr),
                      std::to_string(k.sgprs) + " SGPRs -> " + std::to_string(by_sgpr) + " waves per SIMD"});

  long long lds = align_up(k.lds_bytes, a.lds.allocation_granule);
  int by_lds = lds == 0 ? 1 << 20 : static_cast<int>(a.lds.bytes_per_cu / lds);
  o.limits.push_back({"LDS", by_lds,
                      std::to_string(lds) + " bytes allocated of " + std::to_string(a.lds.bytes_per_cu) + " per CU"});

  o.workgroups_per_cu = std::min_element(o.limits.begin(), o.limits.end(), [](const Limit& x, const Limit& y) {
                          return x.workgroups_per_cu < y.workgroups_per_cu;
                        })->workgroups_per_cu;
  for (const Limit& l : o.limits)
    if (l.workgroups_per_cu == o.workgroups_per_cu)
      o.limited_by += (o.limited_by.empty() ? "" : ", ") + l.resource;
  o.waves_per_cu = o.workgroups_per_cu * wpw;
  o.waves_per_simd = static_cast<double>(o.waves_per_cu) / simds;
  if (o.workgroups_per_cu == 0) o.notes.push_back("the workgroup does not fit on one CU with these resources");
  for (const auto& [key, value] : a.figures)
    if (key == "lds.max_workgroups_per_cu" && value == "unknown")
      o.notes.push_back("a cap on workgroups per CU is not known for " + a.name + " and is not applied");
  return o;
}

}  // namespace tilelab::lds
