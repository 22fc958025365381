// What the design-check commands (`lds --record`, `check --record`) share:
// JSON string quoting and the provenance of a design run in the trace store.
#pragma once
#include <string>

#include "traces/store.hpp"

namespace tilelab::cli {

// s as a JSON string literal (quotes and backslashes escaped, control characters dropped).
std::string json_string(const std::string& s);

// A design run's RunInfo: kind, backend, device and compiler of a design
// check, this binary's git revision and the host; the caller adds shape and configuration.
traces::RunInfo design_run_info(const std::string& id, const std::string& kernel, const std::string& arch);

}  // namespace tilelab::cli
