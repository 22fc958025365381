// What the commands that store runs share: the provenance of a design run
// in the trace store, the store's waiting rule, shapes as text.
#pragma once
#include <string>

#include <vector>

#include "kernels/spec.hpp"
#include "traces/store.hpp"

namespace tilelab::cli {

// A design run's RunInfo: kind, backend, device and compiler of a design
// check, this binary's git revision and the host; the caller adds shape and configuration.
traces::RunInfo design_run_info(const std::string& id, const std::string& kernel, const std::string& arch);

// How the commands that store runs (sim --out, check --record, lds --record)
// wait for another writer of the store: --wait SECONDS (default 60), saying
// on stderr that they wait.
void set_store_wait(double seconds);
traces::WriterOptions store_writer_options();

// "M=128,N=128,K=64": a shape with the spec's dimension names.
std::string shape_text(const kernels::KernelSpec& spec, const std::vector<long long>& shape);
// "128,128,64" -> {128, 128, 64}; std::invalid_argument naming the bad item.
std::vector<long long> parse_shape(const std::string& text);

}  // namespace tilelab::cli
