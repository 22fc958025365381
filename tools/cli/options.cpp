#include "tools/cli/options.hpp"

#include <iostream>
#include <stdexcept>

#include "tools/cli/cli_util.hpp"

#include "sim/emu/emulator.hpp"
#include "sim/timing/cycle_model.hpp"

namespace tilelab::cli {

std::string StoreOptions::broken_rule() const {
  if (!(wait >= 0)) return "--wait SECONDS must not be negative";
  if (out && record) return "--out and --record name the same store: give one";
  return "";
}

bool parse_with_store(const std::string& command, const std::vector<std::string>& args,
                      const po::options_description& opts, const StoreOptions& store, int& status,
                      const po::positional_options_description* pos) {
  po::variables_map vm;
  if (!parse_options(command, args, opts, vm, status, pos)) return false;
  if (const std::string broken = store.broken_rule(); !broken.empty()) {
    status = usage_error(command, broken);
    return false;
  }
  return true;
}

po::options_description store_options(StoreOptions& o, bool record_alias, bool run_id) {
  po::options_description g = option_group("the trace store");
  g.add_options()("out", optional_value(o.out, "FILE.h5"), "add the run to this HDF5 trace store (traces/SCHEMA.md)");
  if (record_alias) g.add_options()("record", optional_value(o.record, "FILE.h5"), "the earlier name of --out");
  if (run_id)
    g.add_options()("run-id", po::value(&o.run_id)->value_name("ID")->default_value("", "the command's"),
                    "the stored run's id; one the store already has is refused before the work");
  g.add_options()("wait", po::value(&o.wait)->value_name("SECONDS")->default_value(60, "60"),
      "how long to wait for another writer of the store");
  return g;
}

traces::WriterOptions writer_options(const StoreOptions& o) {
  traces::WriterOptions w;
  w.wait_seconds = o.wait;
  w.on_wait = [](const std::string& what) { std::cerr << "note: " << what << " (up to --wait seconds)\n"; };
  return w;
}

void add_arch_option(po::options_description& opts, std::optional<std::string>& arch, const char* absent_means) {
  opts.add_options()("arch", optional_value(arch, "gfx950|gfx942|FILE.toml"),
                     (std::string("the architecture, built in or a description after sim/arch/gfx950.toml; without it ") +
                      absent_means)
                         .c_str());
}

po::options_description budget_options(RunBudgets& b) {
  po::options_description g = option_group("budgets (a run that exceeds one stops with one line; nothing is stored)");
  g.add_options()("max-wave-instructions", po::value(&b.wave_instructions)->value_name("N")->default_value(emu::Emulator::kDefaultWaveBudget, "2^24"),
                  "the most one wave may execute (an endless loop is named with the pc where it spins)")(
      "max-launch-instructions", po::value(&b.launch_instructions)->value_name("N")->default_value(emu::Emulator::kDefaultLaunchBudget, "2^32"),
      "the most one launch may execute (simulated, in a sampled run); a grid that needs more, counting the "
      "instructions before the first branch, is refused before it starts")(
      "max-cycles", po::value(&b.cycles)->value_name("N")->default_value(timing::Options{}.max_cycles, "2^36"),
      "a timed launch still running at this simulated cycle stops (a wave that sleeps or waits in a loop)")(
      "max-memory", po::value(&b.memory_bytes)->value_name("BYTES")->default_value(0, "half this machine's memory"),
      "the most a launch file's buffers may take together, checked before any is allocated");
  return g;
}

void print_help(std::ostream& out, const char* usage, const po::options_description& opts) {
  out << usage << "\n" << opts;
}

}  // namespace tilelab::cli
