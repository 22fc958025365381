#include "app/functional_run.hpp"

#include <cmath>
#include <map>

#include "hw/emu/emu_device.hpp"
#include "kernels/host.hpp"
#include "sim/isa/code_object.hpp"

namespace tilelab::app {

FunctionalRun run_functional(const SuiteTarget& target, std::uint64_t seed,
                             const std::function<void(emu::Emulator&)>& prepare,
                             const std::function<bool()>& check_output) {
  const kernels::KernelSpec& spec = *target.spec;
  const kernels::Host host = kernels::find_host(spec.name);
  hw::EmuDevice device(target.arch, prepare);
  const isa::CodeObject code_object = isa::read_code_object(target.code_object);
  const hw::Kernel k = device.load_kernel(code_object, spec.name);  // errors name the file
  FunctionalRun r;
  r.kernel = spec.name;
  r.arch = target.arch.name;
  r.shape = target.shape;
  r.seed = seed;
  r.code_object_sha256 = isa::sha256_hex(std::span<const std::uint8_t>(code_object.bytes));
  kernels::HostLaunch launch = host(device, target.shape, seed);
  kernels::launch_pass(device, kernels::load_pass(device, code_object.bytes, k, launch), launch);
  r.stats = device.last_stats();  // the main kernel's (the last dispatch)
  r.seconds = r.stats.seconds;
  r.checked = !check_output || check_output();
  for (const kernels::KernelLaunch& b : launch.before) r.before.push_back(b.kernel);
  if (!r.checked) return r;
  kernels::Checked c = launch.check();
  r.max_rel_error = c.max_rel_error;
  r.tolerance = c.tolerance;
  r.tolerance_why = c.tolerance_why;
  r.pass = c.pass();
  r.output = std::move(c.output);
  // LDS races found: the whole pass again with the waves in the other order,
  // so that the report can say whether the races change the result.
  if (r.stats.lds_races.count > 0) {
    hw::EmuDevice again(target.arch, [&](emu::Emulator& e) {
      if (prepare) prepare(e);
      e.set_reverse_wave_order(true);
    });
    const hw::Kernel k2 = again.load_kernel(code_object, spec.name);
    kernels::HostLaunch launch2 = host(again, target.shape, seed);
    kernels::launch_pass(again, kernels::load_pass(again, code_object.bytes, k2, launch2), launch2);
    r.same_output_in_reverse_order = launch2.check().output == r.output;
  }
  return r;
}

bool LdsKindRow::agree() const { return !designed || std::abs(emulated - *designed) < 1e-9; }

std::vector<LdsKindRow> lds_vs_design(const emu::RunStats& stats, const kernels::DesignReport* design) {
  struct PerKind {
    double instructions = 0, conflict_cycles = 0;
    double rate() const { return instructions ? conflict_cycles / instructions : 0; }
  };
  std::map<std::string, PerKind> emulated, designed;
  for (const auto& s : stats.lds_sites) {
    if (!s.modelled) continue;
    emulated[s.instruction].instructions += static_cast<double>(s.executions);
    emulated[s.instruction].conflict_cycles += static_cast<double>(s.conflict_cycles);
  }
  if (design)
    for (const auto& a : design->accesses) {
      designed[a.instruction].instructions += static_cast<double>(a.instructions);
      designed[a.instruction].conflict_cycles += static_cast<double>(a.conflict_cycles);
    }
  std::vector<LdsKindRow> rows;
  for (const auto& [kind, e] : emulated) {
    LdsKindRow row{kind, e.rate(), std::nullopt};
    if (auto d = designed.find(kind); d != designed.end()) row.designed = d->second.rate();
    rows.push_back(row);
  }
  return rows;
}

std::vector<std::string> emulated_kernels() { return kernels::hosted_kernels(); }

}  // namespace tilelab::app
