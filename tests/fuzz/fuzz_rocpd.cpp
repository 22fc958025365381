// libFuzzer target: a rocpd database (rocprofv3's SQLite output) built by
// running the input as SQL (seeded from tests/data/rocprof/rocpd_v3.sql and
// variants: other types, NULLs, views, repeated ids), then read with
// read_rocpd.  It gives dispatches that start at a non-negative time and end
// no earlier, or FormatError naming the file; never a crash, UB or a hang
// (the reader bounds its queries' work and temporary storage).
#include <sqlite3.h>

#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <string>

#include "tests/fuzz/scratch_path.hpp"
#include "traces/rocprof/profile.hpp"

namespace {
// The input's own SQL is bounded too: it builds the database, it is not the
// code under test.
int stop_after_budget(void* steps) { return ++*static_cast<int*>(steps) > 2000; }
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tilelab::traces::rocprof;
  static const tilelab::fuzz::ScratchPath scratch("tilelab_fuzz_rocpd_", "_results.db");
  const std::string path = scratch.path.string();
  std::remove(path.c_str());
  const std::string sql(reinterpret_cast<const char*>(data), size);
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) std::abort();
  int steps = 0;
  sqlite3_progress_handler(db, 1000, stop_after_budget, &steps);
  sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);  // whatever part of it runs
  sqlite3_close(db);
  try {
    const Profile p = read_rocpd(path);
    for (const Dispatch& d : p.dispatches)
      if (d.start_ns < 0 || d.end_ns < d.start_ns) std::abort();
  } catch (const FormatError&) {
  }
  return 0;
}
