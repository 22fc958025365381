// A piece of work run in a child process under a budget, for work a hostile
// input could make run or allocate without bound inside a library that
// reports such failures by aborting (LLVM MC: "LLVM ERROR: out of memory").
// The parent never runs the work itself, so a child killed for its budget,
// or aborted, leaves the parent (the CLI, the Python interpreter) intact.
// The child's stdout and stderr go to /dev/null: what the library prints on
// its own is not the result.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tilelab::isa {

struct ChildBudget {
  double cpu_seconds = 60;             // RLIMIT_CPU of the child
  double wall_seconds = 180;           // then the parent kills it
  std::uint64_t memory_bytes = 4ull << 30;  // address space beyond what the parent has mapped
  std::uint64_t max_result_bytes = 256ull << 20;
};

// What the child gave back: its bytes, or why not (one line).
struct ChildOutcome {
  bool ok = false;
  std::vector<std::uint8_t> bytes;
  std::string error;
  bool from_work = false;  // error is the work's own line (else what happened to the child: "ran past ...")
};

// The work's exception (any std::exception) becomes error = what(); a fatal
// error of the library (`fatal_error` installed by the work, writing through
// report_child_failure) too.  A child stopped by its budget gives
// "ran past its N-second CPU budget" / "... wall budget" / "needed more than
// its N MiB memory budget"; a result over max_result_bytes is refused.
ChildOutcome run_bounded(const std::function<std::vector<std::uint8_t>()>& work, const ChildBudget& budget);

// In the child only: reports `message` as the work's failure and ends the
// child at once (for fatal-error handlers that must not return).
[[noreturn]] void report_child_failure(const std::string& message);
// In the child only: the memory budget is spent (for allocation-failure handlers).
[[noreturn]] void report_child_out_of_memory();

}  // namespace tilelab::isa
