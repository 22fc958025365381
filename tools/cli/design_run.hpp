// What the commands that store design runs share: the provenance of a design
// run in the trace store.
#pragma once
#include <string>

#include "app/target.hpp"
#include "traces/store.hpp"

namespace tilelab::cli {

using app::parse_shape;
using app::shape_text;

// A design run's RunInfo (app::run_info): kind, backend, device and compiler
// of a design check; the caller adds shape and configuration.
traces::RunInfo design_run_info(const std::string& id, const std::string& kernel, const std::string& arch);

}  // namespace tilelab::cli
