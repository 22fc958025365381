// A Perfetto file of stored runs (traces/perfetto), written whole or not at
// all: the trace goes to OUT.tmp and is renamed to OUT once complete, so a
// failed or interrupted export never leaves a truncated trace behind.  OUT's
// name says the format: .json (Chrome trace-event JSON) or .pftrace /
// .perfetto-trace (Perfetto's protobuf trace); std::invalid_argument for
// another.  The CLI's `export --perfetto` and Python's export_perfetto both use it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "traces/perfetto.hpp"

namespace tilelab::app {

enum class PerfettoFormat { json, protobuf };
PerfettoFormat perfetto_format(const std::string& out);

traces::PerfettoStats write_perfetto(const std::string& store, const std::vector<std::string>& runs,
                                     const std::string& out, std::uint64_t max_slices = 2'000'000);

}  // namespace tilelab::app
