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

// A candidate is a code object (or assembly) with a launch template, or a
// suite kernel's template compiled with `params` (app/compile_kernel's
// compile_variant: -DTL_NAME=V, cached) and launched by the template beside
// its source unless `launch` says otherwise.
struct SweepCandidate {
  std::string name, code_object, launch;  // paths as the sweep file gives them, from its folder
  ProblemShape shape;                     // the names it fixes at launch (its tile, its order)
  std::string kernel_template;            // a suite source ("gemm_bf16"), when compiled here
  std::string arch = "gfx950";            // what a template is compiled for
  ProblemShape params;                    // compile-time parameters, also given to the launch template
  // Every name the candidate fixes: params and shape (shape wins).
  ProblemShape fixed() const {
    ProblemShape all = params;
    for (const auto& [k, v] : shape) all[k] = v;
    return all;
  }
};

struct SweepSpec {
  std::string name;
  std::vector<SweepCandidate> candidates;
  std::vector<ProblemShape> problems;
};

// Reads SWEEP.toml; std::invalid_argument "FILE:LINE: what" for a file that
// is not one (unknown keys, missing names, a shape value not an integer).
SweepSpec read_sweep(const std::string& file);

// What a sweep may hold: names (the sweep's, a candidate's, a shape's or a
// parameter's) of at most kMaxSweepNameBytes, printable, and at most
// kMaxSweepPoints points (problems x candidates), refused before anything
// is allocated for them; a problem given twice is refused too.
inline constexpr std::size_t kMaxSweepNameBytes = 100;
inline constexpr std::size_t kMaxSweepPoints = 1'000'000;

// "K8192_M128_N8192": a problem in a run id.
std::string problem_id(const ProblemShape& p);
// The run id of one point: sweep-<name>-<candidate>-<problem>-<hash>.  The
// readable part ('/' and control characters as '_', at most 160 bytes) is
// for people; the hash (the first 12 hex digits of the SHA-256 of the three
// parts, each with its length) tells points apart: sweep "x" with candidate
// "y-z" and sweep "x-y" with candidate "z" read alike but hash apart
// (docs/sweeps.md, "Run identity").
std::string sweep_run_id(const SweepSpec& s, const SweepCandidate& c, const ProblemShape& p);

struct SweepPoint {
  std::optional<double> us;  // predicted time; empty: invalid
  std::string why;           // the reason, when invalid
  bool resumed = false;      // read back from the store, not run
  bool elsewhere = false;    // another rank's point, not known here (yet: absorb_points)
};

struct SweepOptions {
  bool full = false;  // every grid simulated in full (else sampled, one-round grids in full)
  int threads = 0;
  std::string out;    // the store (empty: nothing stored, nothing resumed)
  traces::WriterOptions store;
  // Several processes (MPI ranks): this one runs the points (problem p,
  // candidate c) with (p + c) mod ranks == rank, a fixed balanced split
  // (each rank gets every candidate on some problems, so neither the cheap
  // nor the dear candidates gather on one rank; no coordinator, and the same
  // split on every rerun).  With ranks > 1 it stores them in its shard,
  // OUT.shard-<rank>.h5, which merge_shards moves into OUT.
  int rank = 0, ranks = 1;
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

// Runs (or resumes) the sweep: this rank's points that neither OUT nor any
// shard beside it holds (a killed sweep's shards count as stored).  Throws
// for a store that cannot be read or written, and before any point is run
// for a spec over the caps, a run id the store cannot take, or a stored
// point whose configuration (its fingerprint: code object, launch file and
// arch file SHA-256, the candidate's parameters and shape, the coverage
// asked for) is not the one asked for now: a stale point is never returned
// as stored.  A point that cannot run is invalid with its reason, stored as
// a run without timing (config "invalid") and read back as such on resume;
// a stored run that cannot be read is an invalid point saying so (the
// others resume).
SweepResult run_sweep(const SweepSpec& spec, const SweepOptions& options, const SweepProgress& progress = {});

// The shard of `rank` beside `out`, and every shard there is (any rank count).
std::string shard_path(const std::string& out, int rank);
std::vector<std::string> shard_paths(const std::string& out);

// Moves the shards' points into OUT in the sweep's order (problem by problem,
// candidate by candidate: the order a single process stores them in), then
// removes each shard all of whose runs OUT now holds.  Returns the points moved.
std::size_t merge_shards(const SweepSpec& spec, const SweepOptions& options);

// The points this rank ran (not resumed, not elsewhere), to send to rank 0:
// [[problem, candidate, us or null, why], ...]; absorb_points fills them in.
Json own_points_json(const SweepResult& r);
void absorb_points(SweepResult& r, const Json& points);

// {"sweep", "coverage", "candidates", "problems": [{"problem", "shape", "winner",
//  "points": [{"candidate", "us" | null, "invalid", "stored", "run_id"}]}], "wins", "invalid"}
Json sweep_json(const SweepResult& r);

}  // namespace tilelab::app
