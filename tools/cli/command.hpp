// One `tilelab` subcommand: a name, a one-line summary and an entry point.
#pragma once

#include <string>
#include <vector>

namespace tilelab::cli {

// Exit statuses shared by every subcommand.
constexpr int kOk = 0;
constexpr int kFailed = 1;  // the command ran and something it computed failed
constexpr int kUsage = 2;   // bad command line, unreadable input file
constexpr int kNoDevice = 3;  // no device to run on (no runtime library, no GPU, another vendor's GPU)

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>& args);  // args after the subcommand name
};

int run_layout(const std::vector<std::string>& args);
int run_arch(const std::vector<std::string>& args);
int run_lds(const std::vector<std::string>& args);
int run_occupancy(const std::vector<std::string>& args);
int run_swizzle(const std::vector<std::string>& args);
int run_runs(const std::vector<std::string>& args);
int run_compare(const std::vector<std::string>& args);
int run_export(const std::vector<std::string>& args);
int run_compile(const std::vector<std::string>& args);
int run_disasm(const std::vector<std::string>& args);
int run_check(const std::vector<std::string>& args);
int run_sim(const std::vector<std::string>& args);
int run_run(const std::vector<std::string>& args);
int run_import(const std::vector<std::string>& args);
int run_sweep(const std::vector<std::string>& args);
int run_tune(const std::vector<std::string>& args);

}  // namespace tilelab::cli
