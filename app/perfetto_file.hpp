// A Perfetto file of stored runs (traces/analysis's export), written whole or
// not at all: the JSON goes to OUT.tmp and is renamed to OUT once complete,
// so a failed or interrupted export never leaves a truncated trace behind.
// The CLI's `export --perfetto` and Python's export_perfetto both use it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "traces/analysis.hpp"

namespace tilelab::app {

traces::PerfettoStats write_perfetto(const std::string& store, const std::vector<std::string>& runs,
                                     const std::string& out, std::uint64_t max_slices = 2'000'000);

}  // namespace tilelab::app
