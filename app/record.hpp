// Runs into the HDF5 trace store (traces/SCHEMA.md), one writer per kind of
// result, each with its provenance (provenance.hpp) and the writer options
// the caller gives (how long to wait for another writer): the CLI's --out
// and the Python module's out= write the same bytes.
#pragma once
#include <string>

#include "app/functional_run.hpp"
#include "app/timed_run.hpp"
#include "sim/isa/code_object.hpp"
#include "traces/store.hpp"

namespace tilelab::app {

// The emulated run's LDS sites as the store's `lds` rows; returns their conflict cycles.
std::uint64_t add_lds_sites(traces::RunWriter& w, const emu::RunStats& stats);
// A timed run (backend cycle-model): per-wave spans, per-issue records, per-pc
// statistics, counters, the summary when the reference was checked.
void record_timing(const std::string& file, const std::string& id, const TimedRun& t, const traces::WriterOptions& options);
// A functional run of a suite kernel (backend emu): LDS sites and counters.
void record_functional(const std::string& file, const std::string& id, const SuiteTarget& target, const FunctionalRun& r,
                       const traces::WriterOptions& options);

// A code object run from a launch file in the functional emulator (backend
// emu): no reference, so LDS sites and counters only.
void record_launch_file_run(const std::string& file, const std::string& id, const arch::Arch& a, const isa::CodeObject& co,
                            const std::string& kernel, const std::string& shape, std::uint64_t seed,
                            const emu::RunStats& stats, const traces::WriterOptions& options);

}  // namespace tilelab::app
