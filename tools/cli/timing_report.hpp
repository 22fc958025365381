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

}  // namespace tilelab::cli
