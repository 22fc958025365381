// Kernels run in the functional emulator (sim/emu) against their CPU
// references: the kernel's host (kernels/host.hpp) on an hw::EmuDevice —
// inputs from a seed, the kernel's own code object executed instruction by
// instruction, the output compared element by element.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/emu/emulator.hpp"

namespace tilelab::kernels {

struct EmulatedRun {
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
};

// Runs `kernel` (a spec name) for `arch` on `shape` (the spec's dims; the
// shape rules are checked first) with inputs drawn from `seed`.  The code
// object is DIR/<arch>/<source>.hsaco, DIR defaulting to the build's.
// Throws std::invalid_argument for an unknown kernel, a kernel without a
// host, an arch the kernel is not built for, or a shape the kernel refuses; emu::EmuError when the emulated run
// stops.  `prepare`, when given, is called with the emulator before the host
// runs it: the cycle model attaches itself there (timing::CycleModel::attach).
// `check_output`, when given, is asked after the run whether to check the
// output against the CPU reference (a sampled timed run leaves most of it
// unwritten, and the reference of a real shape costs more than the run).
EmulatedRun run_emulated(const std::string& kernel, const std::string& arch, const std::vector<long long>& shape,
                         std::uint64_t seed, const std::string& code_object_dir = "",
                         const std::function<void(emu::Emulator&)>& prepare = {},
                         const std::function<bool()>& check_output = {});

// The kernels that have a host (kernels/host.hpp).
std::vector<std::string> emulated_kernels();

}  // namespace tilelab::kernels
