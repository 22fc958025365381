// A sweep (tilelab sweep, tilelab.sweep in Python): candidates (code objects
// or assembly with a launch template, kernels/launch_file) x problem shapes,
// each point timed by the cycle model (app/launch_run), stored as a run when
// a store is given, resumed from it; the predicted winner per shape.  The
// CLI prints a SweepResult as text or sweep_json; Python returns sweep_json.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/json.hpp"
#include "app/timed_run.hpp"
#include "traces/store.hpp"

namespace tilelab::app {

using ProblemShape = std::map<std::string, std::int64_t>;

struct SweepCandidate {
  std::string name, code_object, launch;  // paths as the sweep file gives them, from its folder
  ProblemShape shape;                     // the names it fixes (its tile)
};

struct SweepSpec {
  std::string name;
  std::vector<SweepCandidate> candidates;
  std::vector<ProblemShape> problems;
};

// Reads SWEEP.toml; std::invalid_argument "FILE:LINE: what" for a file that
// is not one (unknown keys, missing names, a shape value not an integer).
SweepSpec read_sweep(const std::string& file);

// "K8192_M128_N8192": a problem in a run id.
std::string problem_id(const ProblemShape& p);
// The run id of one point: sweep-<name>-<candidate>-<problem>.
std::string sweep_run_id(const SweepSpec& s, const SweepCandidate& c, const ProblemShape& p);

struct SweepPoint {
  std::optional<double> us;  // predicted time; empty: invalid
  std::string why;           // the reason, when invalid
  bool resumed = false;      // read back from the store, not run
};

struct SweepOptions {
  bool full = false;  // every grid simulated in full (else sampled, one-round grids in full)
  int threads = 0;
  std::string out;    // the store (empty: nothing stored, nothing resumed)
  traces::WriterOptions store;
};

struct SweepResult {
  SweepSpec spec;
  bool full = false;
  std::vector<std::vector<SweepPoint>> points;  // [problem][candidate]
  // Each problem's valid candidates, fastest first (ties keep the sweep file's order).
  std::vector<std::size_t> ranking(std::size_t problem) const;
};

// One line per point as it is done: [k/n] candidate problem: result (elapsed, left).
using SweepProgress = std::function<void(const std::string&)>;

// Runs (or resumes) the sweep.  Throws only for a store that cannot be read;
// a point that cannot run is invalid with its reason.
SweepResult run_sweep(const SweepSpec& spec, const SweepOptions& options, const SweepProgress& progress = {});

// {"sweep", "coverage", "candidates", "problems": [{"problem", "shape", "winner",
//  "points": [{"candidate", "us" | null, "invalid", "stored", "run_id"}]}], "wins", "invalid"}
Json sweep_json(const SweepResult& r);

}  // namespace tilelab::app
