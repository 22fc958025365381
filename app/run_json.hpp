// The one machine-readable form of each kind of run: what the CLI prints with
// --json, what the Python module returns (a dict built from it, numpy arrays
// added for the per-wave and per-issue columns), and the key vocabulary the
// store's run configurations use.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "app/functional_run.hpp"
#include "app/json.hpp"
#include "kernels/chip_bound.hpp"
#include "app/timed_run.hpp"
#include "traces/store.hpp"

namespace tilelab::app {

// "0x1c50".
std::string pc_hex(std::uint64_t pc);
// A figure as text with 9 significant digits ("%.9g"): counters and clocks in
// the text report and the stored device name.
std::string figure_text(double v);

// The whole-chip bound of `tilelab check` (kernels/chip_bound.hpp): cycles,
// microseconds, limiter, launch cycles and each level's bytes and cycles.
Json chip_bound_json(const kernels::ChipBound& c);

// The LDS race check: count and the first pairs.
Json races_json(const emu::LdsRaceLog& races);
// A functional run: the reference check, the run's size, LDS races, every
// LDS site and the per-kind comparison with the design.
Json functional_json(const SuiteTarget& target, const FunctionalRun& r, const std::vector<LdsKindRow>& rows);
// A timed run: time, rate, limiter, utilisation, the chip's traffic, stall
// cycles by reason, counters, the hottest instructions, hazards, the static
// bound, the reference check and the assumed figures.
Json timing_json(const TimedRun& t);
// The annotated listing (listing_rows), one object per instruction in program
// order: pc, class, loop_depth, text, hits, latency, stall, idle,
// waits_most_on and the nonzero stall cycles by reason.  `sim --timing
// --listing --json` adds it as "listing"; Python's timing dict always has it.
Json listing_json(const TimedRun& t);
// A stored run as `runs list --json` (one object per run: provenance and
// summary, keys as traces/SCHEMA.md names the fields) and, with `detail`,
// as `runs show --json` (table sizes, every counter, the LDS sites).
Json stored_run_json(const traces::Reader& r, const std::string& id, bool detail);

}  // namespace tilelab::app
