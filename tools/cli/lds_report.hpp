// Printing bank-model results as tables and JSON (shared by lds and swizzle).
#pragma once

#include "app/json.hpp"
#include <cstdint>
#include <string>

#include "sim/lds/bank_model.hpp"

namespace tilelab::cli {

// "0-3,12-15,20-27"
std::string lane_ranges(std::uint64_t mask);
// Per-pass table of one instruction.
std::string pass_table(const lds::Analysis& a);
// One line naming the counters in the vendor's units.
std::string totals_line(const arch::Arch& arch, long long cycles, long long conflicts, int passes);
// A warning line when the instruction's phases are an assumption; empty otherwise.
std::string assumption_note(const arch::Arch& arch, const arch::LdsInstruction& ins);

}  // namespace tilelab::cli
