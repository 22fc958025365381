// The command line's options as typed fields.  Each command declares a struct
// of its options and binds every option to a field, with its description, in
// one option table; `--help` prints the command's prose and then that table
// (print_help), so an option is described once, beside its declaration.
// The groups several commands share (the store, the arch, the run budgets)
// are declared here once.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "traces/store.hpp"

namespace tilelab::cli {

namespace po = boost::program_options;

// An option table as `--help` prints it: 100 columns, the descriptions given
// at least half of them.
inline po::options_description option_group(const std::string& caption = "") {
  return po::options_description(caption, 100, 50);
}

// A value option that may be absent, bound to an std::optional (set only when
// the command line gives it).
template <class T>
po::typed_value<T>* optional_value(std::optional<T>& field, const char* value_name = "ARG") {
  return po::value<T>()->value_name(value_name)->notifier([&field](const T& v) { field = v; });
}

// A flag bound to a bool (false unless given).
inline po::typed_value<bool>* flag(bool& field) { return po::bool_switch(&field); }

// Where a run is recorded: --out FILE.h5 (check and lds also take --record, its
// earlier name), --run-id ID, --wait SECONDS.
struct StoreOptions {
  std::optional<std::string> out, record;
  std::string run_id;
  double wait = 60;

  // The store to write ("" for none).
  std::string file() const { return out ? *out : record ? *record : ""; }
  // The group's own rules (--wait not negative; --out or --record, not both):
  // the first one broken, "" when none is.
  std::string broken_rule() const;
  bool given() const { return out || record; }
  // --run-id, else `fallback`.
  std::string id_or(const std::string& fallback) const { return run_id.empty() ? fallback : run_id; }
};
// The group; `record_alias` adds --record, `run_id` --run-id (a command that
// names its runs itself has none).
po::options_description store_options(StoreOptions& o, bool record_alias = false, bool run_id = true);
// The writer's options: wait up to --wait seconds for another writer of the
// store, saying so on stderr.
traces::WriterOptions writer_options(const StoreOptions& o);

// parse_options (cli_util.hpp) for a command with the store group, then the
// group's rules: false (after printing the usage error, status set) on a bad
// command line.
bool parse_with_store(const std::string& command, const std::vector<std::string>& args,
                      const po::options_description& opts, const StoreOptions& store, int& status,
                      const po::positional_options_description* pos = nullptr);

// --arch NAME|FILE.toml, absent unless given: each command says what it means
// then (the built-in gfx950, a code object's own processor, a profile's GPU).
void add_arch_option(po::options_description& opts, std::optional<std::string>& arch, const char* absent_means);

// The emulator's and the cycle model's run budgets.
struct RunBudgets {
  std::uint64_t wave_instructions = 0, launch_instructions = 0, cycles = 0, memory_bytes = 0;
};
po::options_description budget_options(RunBudgets& b);

// `usage` (the command's usage lines and prose), then its option table.
void print_help(std::ostream& out, const char* usage, const po::options_description& opts);

}  // namespace tilelab::cli
