// How `tilelab sim --timing` prints a cycle-model run as text (the JSON form
// and the store writer are app/run_json and app/record).
#pragma once
#include <string>
#include <vector>

#include "app/timed_run.hpp"

namespace tilelab::cli {

using app::TimedRun;

// "  the pass ran K1, K2 first; these figures are KERNEL's alone\n", or "" for a single kernel.
std::string pass_note(const std::string& kernel, const std::vector<std::string>& before);

void print_timing_text(const TimedRun& t);

// `sim --timing --listing`: every instruction in program order, as a thread
// trace viewer shows a kernel: pc, class, one '|' per enclosing loop, the
// per-pc columns summed over waves (hits, latency, stall, idle) and what the
// waves waited on most, then the instruction (M and L marks as disasm has
// them).  Waits at a barrier are shown on the s_barrier (app::listing_rows).
// No source lines: the suite's code objects carry no line tables.
void print_timing_listing(const TimedRun& t);

}  // namespace tilelab::cli
