// What the commands that store runs share: the provenance of a design run in
// the trace store, and the CLI's waiting rule for the store (--wait).
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

// How the commands that store runs (sim --out, check --record, lds --record)
// wait for another writer of the store: --wait SECONDS (default 60), saying
// on stderr that they wait.
void set_store_wait(double seconds);
traces::WriterOptions store_writer_options();

}  // namespace tilelab::cli
