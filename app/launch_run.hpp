// A code object tilelab did not build, run from a launch file (or template,
// kernels/launch_file) in the emulator, and timed by the cycle model when
// asked: the one orchestration `tilelab sim FILE.co --launch`, `tilelab sweep`
// and the tests share.  `view` is the TimedRun the printer, the JSON form and
// the store writer read (timed runs only).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/timed_run.hpp"
#include "hw/emu/emu_device.hpp"
#include "kernels/host.hpp"
#include "kernels/launch_file.hpp"

namespace tilelab::app {

struct LaunchFileRun {
  std::unique_ptr<timing::CycleModel> model;   // when timed
  std::unique_ptr<hw::EmuDevice> device;       // holds the run's statistics
  const emu::RunStats* stats = nullptr;
  std::vector<kernels::SavedBuffer> saved;     // the buffers marked save
  std::string shape;                           // "launch L.toml" and a template's "M=256,N=256"
  TimedRun view;                               // timed runs: points into the members above
  LaunchFileRun() = default;
  LaunchFileRun(const LaunchFileRun&) = delete;
  LaunchFileRun& operator=(const LaunchFileRun&) = delete;
};

// The launch `l` of code object `co` on arch `a`; timed (with the options'
// coverage, budgets and threads) when `timed` is set, else functional with
// the options' budgets.  Throws what the emulator, the model or the launch
// file's host throw.
std::unique_ptr<LaunchFileRun> run_launch_file(const isa::CodeObject& co, const kernels::LaunchFile& l,
                                               const arch::Arch& a, const TimedOptions& options, bool timed);

// "launch L.toml" and, for a template, ", M=256,N=256" (its names in order).
std::string launch_shape_text(const kernels::LaunchFile& l);

}  // namespace tilelab::app
