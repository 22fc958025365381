// A run in the cycle-approximate model (sim/timing): the suite kernel's
// functional run with the model attached, orchestrated once for the CLI and
// the Python module (sampling and fast-forward policy, budgets, the design
// check's static bound beside it), and `TimedRun`, the view of a timed run
// that the printer, the JSON form and the store writer read — for a suite
// kernel and for a code object run from a launch file alike.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/functional_run.hpp"
#include "kernels/design_check.hpp"
#include "sim/isa/code_object.hpp"
#include "sim/isa/program.hpp"
#include "sim/timing/cycle_model.hpp"

namespace tilelab::app {

struct TimedRun {
  std::string kernel;                           // its name
  std::string shape;                            // "M=512,N=512,K=512", or "launch L.toml"
  std::uint64_t seed = 0;
  const arch::Arch* arch = nullptr;             // the description the run used
  std::string code_object_sha256;               // of the code object run
  const emu::RunStats* stats = nullptr;         // the functional side: LDS sites
  struct Reference {
    bool pass = false;
    double max_rel_error = 0, tolerance = 0;
  };
  std::optional<Reference> reference;           // absent for a code object run from a launch file, or a sampled run
  const timing::TimingResult* timing = nullptr;
  const isa::Program* program = nullptr;
  // Per program instruction, the source line it came from ("file:line",
  // isa::source_lines; "" where the code object has none).
  std::vector<std::string> source;
  std::optional<kernels::TileBound> bound;      // the static bound of `tilelab check`, when the spec has one
  std::optional<kernels::ChipBound> chip_bound; // its whole-chip bound, when the run has the whole chip
  double model_seconds = 0;                     // wall time of the timed run (printed, never stored)
  int top = 10;                                 // hottest instructions shown
  std::vector<std::string> before;              // kernels of the pass that ran first, not in these figures
  std::string extra_config_json;                // a JSON object merged into the stored run's config (a sweep's point)
};

// How much of the grid the model simulates.
enum class Coverage {
  sampled,   // XCD 0 in full with its share of the memory side, regular grids fast-forwarded (the default)
  all_xcds,  // every XCD, regular grids fast-forwarded (orders that share data between XCDs)
  full,      // every workgroup
};

struct TimedOptions {
  std::uint64_t seed = 1;
  Coverage coverage = Coverage::sampled;
  // Check the output against the CPU reference: the run is then full (a
  // sampled or fast-forwarded run leaves output unwritten).
  bool check_reference = false;
  // The fast-forward of regular and periodic grids (sim/timing/fast_forward);
  // off: the sampled XCD (or every XCD) runs every workgroup.
  bool fast_forward = true;
  int cus = 0;                                  // 0: the chip's
  std::uint64_t max_cycles = timing::Options{}.max_cycles;
  std::uint64_t wave_budget = emu::Emulator::kDefaultWaveBudget;
  std::uint64_t launch_budget = emu::Emulator::kDefaultLaunchBudget;
  int top = 10;
  int threads = 1;  // the cycle model's threads (0: one per core); the result does not depend on it
  // Keep the issue records (the store's `events` rows, Python's "events"):
  // off for a run nothing records, which then neither builds nor keeps them.
  bool keep_events = true;
  std::function<void(const timing::Progress&)> progress;
};

// The cycle model's options for a coverage (sample, fast_forward); `kernel`
// is the one sampled when a pass launches several.
timing::Options model_options(const TimedOptions& o, const std::string& kernel);

// A timed run of a suite kernel and what its view points into.
struct TimedKernelRun {
  FunctionalRun functional;
  std::unique_ptr<timing::CycleModel> model;
  isa::Program program;                         // the timed (last) dispatch's
  std::optional<kernels::TileBound> bound;
  std::optional<kernels::ChipBound> chip_bound;
  TimedRun view;                                // points into the members above
  TimedKernelRun() = default;
  TimedKernelRun(const TimedKernelRun&) = delete;
  TimedKernelRun& operator=(const TimedKernelRun&) = delete;
};

// timing::TimingError when the arch has no timing figures (before any work),
// emu::EmuError when the run stops.
std::unique_ptr<TimedKernelRun> run_timed(const SuiteTarget& target, const TimedOptions& options);

// Instruction indices by stall cycles (then by latency), the hottest `n` first.
std::vector<std::size_t> hottest_instructions(const timing::TimingResult& r, int n);
// The reason an instruction's waves stalled on most (none when they did not).
timing::Reason top_reason(const timing::PcStats& s);

// The annotated listing's rows (`sim --timing --listing`, Python's
// timing['listing']): per instruction in program order its per-pc columns,
// with the cycles waves waited at a barrier moved from the instruction after
// the s_barrier (where the model charges them: the wave resumes there) onto
// the s_barrier itself, where a reader looks for them.
struct ListingRow {
  std::size_t index = 0;
  int loop_depth = 0;        // enclosing loops
  timing::PcStats stats;
  timing::Reason waits_most_on = timing::Reason::none;
};
std::vector<ListingRow> listing_rows(const isa::Program& p, const timing::TimingResult& r);
// The source line of each of the program's instructions (TimedRun::source).
std::vector<std::string> program_source_lines(const isa::CodeObject& co, const isa::Program& p);
// The FLOPs a run's TFLOP/s are counted from (the MFMAs' 2mnk).
double work_flops(const TimedRun& t);

}  // namespace tilelab::app
