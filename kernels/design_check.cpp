#include "kernels/design_check.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/lds/bank_model.hpp"
#include "sim/lds/tile_access.hpp"

namespace tilelab::kernels {

namespace {

AccessReport check_access(const KernelSpec& spec, const LdsAccess& acc, const arch::Arch& a) {
  const lds::BankModel model(a, a.instruction(acc.instruction));
  AccessReport r{acc.what, acc.instruction};
  if (acc.tv) {
    const LdsBuffer& buf = spec.lds.at(static_cast<std::size_t>(acc.buffer));
    const lds::TileReport t = lds::analyze_tile(model, *acc.tv, IntTuple{buf.rows, buf.cols},
                                                [&buf](Int m, Int n) { return buf.offset(m, n); }, buf.elem_bytes);
    r.instructions = static_cast<long long>(t.analyses.size());
    r.cycles = t.cycles;
    r.conflict_cycles = t.conflict_cycles;
    for (const auto& an : t.analyses) r.worst_ways = std::max(r.worst_ways, an.max_ways);
  } else {
    const lds::Analysis an = model.analyze(acc.lane_addresses, acc.active);
    r.instructions = 1;
    r.cycles = an.cycles;
    r.conflict_cycles = an.conflict_cycles;
    r.worst_ways = an.max_ways;
  }
  return r;
}

TileBound bound_of(const KernelSpec& spec, const arch::Arch& a, const std::vector<long long>& shape,
                   const std::vector<AccessReport>& accesses) {
  TileBound b;
  b.shape = shape;
  b.work = spec.work(shape, a.name);
  if (!b.work.mfma.empty()) {
    const auto it = std::find_if(a.mfma.begin(), a.mfma.end(), [&](const auto& m) { return m.name == b.work.mfma; });
    if (it == a.mfma.end()) throw std::invalid_argument(a.name + " describes no " + b.work.mfma);
    const int simds = std::min(spec.waves(a.wave_size), a.simds_per_cu);
    b.mfma_cycles = static_cast<double>(b.work.mfma_per_workgroup) *
                    (b.work.mfma_fp6_fp4 ? it->cycles_fp6_fp4 : it->cycles) / simds;
  }
  double lds = 0;
  for (const auto& acc : accesses) lds += static_cast<double>(acc.cycles);
  b.lds_cycles = lds * static_cast<double>(b.work.lds_repeats);
  // The CUs running work (one per workgroup, at most the chip's) share the HBM bandwidth.
  b.hbm_bytes_per_clock_per_cu = arch::memory_bytes_per_clock_per_cu(a, static_cast<double>(b.work.workgroups));
  b.global_cycles = static_cast<double>(b.work.global_bytes) / b.hbm_bytes_per_clock_per_cu;
  b.global_cycles_reused = static_cast<double>(b.work.problem_bytes) / static_cast<double>(b.work.workgroups) /
                           b.hbm_bytes_per_clock_per_cu;
  b.limiter = "MFMA";
  double most = b.mfma_cycles;
  if (b.lds_cycles > most) most = b.lds_cycles, b.limiter = "LDS";
  if (b.global_cycles_reused > most) b.limiter = "global memory";
  return b;
}

}  // namespace

DesignReport design_check(const KernelSpec& spec, const arch::Arch& a, const std::optional<CompiledFacts>& compiled,
                          const std::optional<std::vector<long long>>& shape) {
  if (std::find(spec.archs.begin(), spec.archs.end(), a.name) == spec.archs.end())
    throw std::invalid_argument(spec.name + " is not built for " + a.name);
  DesignReport rep;
  rep.kernel = spec.name;
  rep.arch = a.name;
  rep.lds_bytes = spec.lds_bytes();
  rep.lds_capacity = a.lds.bytes_per_cu;
  if (rep.lds_bytes > rep.lds_capacity)
    rep.problems.push_back("LDS: the design needs " + std::to_string(rep.lds_bytes) + " bytes, " + a.name + " has " +
                           std::to_string(rep.lds_capacity));
  std::vector<std::string> assumed;  // instructions whose phases the arch file assumes, each noted once
  for (const auto& acc : spec.accesses) {
    const arch::LdsInstruction& ins = a.instruction(acc.instruction);
    if (ins.status == arch::Status::kAssumed &&
        std::find(assumed.begin(), assumed.end(), ins.name) == assumed.end()) {
      assumed.push_back(ins.name);
      rep.notes.push_back("the phases of " + ins.name + " on " + a.name +
                          " are not known: its accesses are costed on an assumption (" + ins.source + ")");
    }
    rep.accesses.push_back(check_access(spec, acc, a));
    rep.conflict_cycles += rep.accesses.back().conflict_cycles;
    if (rep.accesses.back().conflict_cycles)
      rep.problems.push_back(acc.what + ": " + std::to_string(rep.accesses.back().conflict_cycles) +
                             " bank-conflict cycles (" + acc.instruction + ")");
  }
  rep.compiled = compiled;
  if (compiled) {
    if (compiled->lds_bytes != rep.lds_bytes)
      rep.problems.push_back("the code object uses " + std::to_string(compiled->lds_bytes) +
                             " bytes of LDS, the spec designs " + std::to_string(rep.lds_bytes));
    if (compiled->max_workgroup_size != spec.threads_per_block)
      rep.problems.push_back("the code object allows workgroups of " + std::to_string(compiled->max_workgroup_size) +
                             ", the spec designs " + std::to_string(spec.threads_per_block));
    if (compiled->scratch_bytes)
      rep.problems.push_back("the code object spills to scratch (" + std::to_string(compiled->scratch_bytes) +
                             " bytes per lane)");
    const lds::KernelResources res{compiled->vgprs, compiled->agprs, compiled->sgprs, compiled->lds_bytes,
                                   spec.threads_per_block};
    rep.occupancy = lds::occupancy(a, res);
    rep.limited_by = rep.occupancy->limited_by;
    rep.notes.insert(rep.notes.end(), rep.occupancy->notes.begin(), rep.occupancy->notes.end());
  } else {
    rep.limited_by = "unknown (no compiled code object: registers are the compiler's)";
  }
  if (spec.work) {
    const std::vector<long long> sh = shape ? *shape : spec.example_shapes.at(0);
    const std::string broken = spec.shape_violations(sh);
    if (!broken.empty()) throw std::invalid_argument(broken);
    rep.bound = bound_of(spec, a, sh, rep.accesses);
    if (a.has_timing && a.has_memory && rep.bound->work.tiles_read)
      rep.chip = chip_bound(rep.bound->work, a, spec.waves(a.wave_size), rep.bound->mfma_cycles, rep.bound->lds_cycles);
  } else if (shape) {
    throw std::invalid_argument(spec.name + " takes no shape (a microbenchmark: its pattern is chosen at launch)");
  }
  return rep;
}

}  // namespace tilelab::kernels
