// A suite kernel run in the functional emulator (sim/emu) against its CPU
// reference: the kernel's host (kernels/host.hpp) on an hw::EmuDevice built
// from the target's arch description — inputs from a seed, the kernel's own
// code object executed instruction by instruction, the output compared
// element by element.  The timed run (timed_run.hpp) is this run with the
// cycle model attached.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/target.hpp"
#include "kernels/design_check.hpp"
#include "sim/emu/emulator.hpp"

namespace tilelab::app {

struct FunctionalRun {
  std::string kernel, arch;
  std::vector<long long> shape;
  std::uint64_t seed = 0;
  double max_rel_error = 0;
  double tolerance = 0;
  std::string tolerance_why;
  bool pass = false;
  bool checked = true;                 // false: the reference check was skipped (check_output said so)
  emu::RunStats stats;
  double seconds = 0;                  // wall time of the emulated dispatch (inputs and reference excluded)
  std::vector<std::uint8_t> output;    // the kernel's output bytes
  std::vector<std::string> before;     // kernels of the pass launched first (HostLaunch::before); stats are the main kernel's
  // When the functional run found LDS races: whether the run with each
  // workgroup's waves in reverse order gave the same output bytes (empty: not checked).
  std::optional<bool> same_output_in_reverse_order;
  std::string code_object_sha256;      // of the code object run
};

// Runs the target with inputs drawn from `seed`.  emu::EmuError when the
// emulated run stops.  `prepare`, when given, is called with the emulator
// before the host runs it: the cycle model attaches itself there
// (timing::CycleModel::attach).  `check_output`, when given, is asked after
// the run whether to check the output against the CPU reference (a sampled
// timed run leaves most of it unwritten, and the reference of a real shape
// costs more than the run).
FunctionalRun run_functional(const SuiteTarget& target, std::uint64_t seed,
                             const std::function<void(emu::Emulator&)>& prepare = {},
                             const std::function<bool()>& check_output = {});

// Conflict cycles per wave-instruction of one LDS instruction kind, from the
// lanes' addresses and, when the spec designs that kind, from the design.
struct LdsKindRow {
  std::string kind;
  double emulated = 0;
  std::optional<double> designed;
  bool agree() const;
};
std::vector<LdsKindRow> lds_vs_design(const emu::RunStats& stats, const kernels::DesignReport* design);

// The kernels that have a host (kernels/host.hpp).
std::vector<std::string> emulated_kernels();

}  // namespace tilelab::app
