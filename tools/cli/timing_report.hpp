// How `tilelab sim --timing` shows a cycle-model run: the text summary, the
// JSON object, and the run in the HDF5 trace store (traces/SCHEMA.md, runs
// of backend "cycle-model").
#pragma once
#include <optional>
#include <string>

#include "kernels/design_check.hpp"
#include "kernels/emulated.hpp"
#include "sim/isa/program.hpp"
#include "sim/timing/cycle_model.hpp"
#include "traces/store.hpp"

namespace tilelab::cli {

struct TimedRun {
  std::string kernel;                           // its name
  std::string shape;                            // "M=512,N=512,K=512", or "launch L.toml"
  std::uint64_t seed = 0;
  const emu::RunStats* stats = nullptr;         // the functional side: LDS sites
  struct Reference {
    bool pass = false;
    double max_rel_error = 0, tolerance = 0;
  };
  std::optional<Reference> reference;           // absent for a code object run from a launch file
  const timing::TimingResult* timing = nullptr;
  const isa::Program* program = nullptr;
  std::optional<kernels::TileBound> bound;      // the static bound of `tilelab check`, when the spec has one
  double model_seconds = 0;                     // wall time of the timed run (printed, never stored)
  int top = 10;                                 // hottest instructions shown
  std::vector<std::string> before;              // kernels of the pass that ran first, not in these figures
};

// "  the pass ran K1, K2 first; these figures are KERNEL's alone\n", or "" for a single kernel.
std::string pass_note(const std::string& kernel, const std::vector<std::string>& before);

void print_timing_text(const TimedRun& t);
// The emulated run's LDS sites as the store's `lds` rows; returns their conflict cycles.
std::uint64_t add_lds_sites(traces::RunWriter& w, const emu::RunStats& stats);
std::string timing_json(const TimedRun& t);
// Adds the run to the store `file` (run id `id`).
void record_timing(const std::string& file, const std::string& id, const TimedRun& t);

}  // namespace tilelab::cli
