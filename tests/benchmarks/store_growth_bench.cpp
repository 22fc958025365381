// The store's cost of adding a run, against the size of the store (issue 16):
// adding a small run to an empty store, to one holding 1 GiB of runs and to
// one holding 10 GiB should cost the same; 1,000 runs added one by one
// should take linear time (the cost of each add flat as the store grows).
// The big stores are real: one run of ~1 GiB of incompressible events is
// written, then copied under other ids (and linked into the index) to reach
// 10 GiB on disk.  Needs ~12 GiB free in the temporary folder.
// Run: build/bin/bench_store_growth [GiB of the big store, default 10; 0: only the 1,000 runs]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <unistd.h>
#include <vector>

#include "traces/hdf5.hpp"
#include "traces/store.hpp"

using namespace tilelab::traces;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

void add_run(const std::string& file, const std::string& id, std::uint64_t events, std::uint32_t seed) {
  RunInfo info;
  info.id = id;
  info.kind = "sim";
  info.utc_time = "2026-12-03T00:00:00Z";
  RunWriter w(file, info);
  std::mt19937_64 rng(seed);
  for (std::uint64_t i = 0; i < events; ++i) {  // random fields: the events do not compress
    const std::uint64_t r = rng();
    w.add_event({static_cast<std::uint32_t>(i % 256), static_cast<std::uint32_t>(r), static_cast<std::uint16_t>(r >> 32),
                 static_cast<std::uint8_t>(r >> 48), static_cast<std::uint8_t>(r >> 56), static_cast<std::uint32_t>(rng()),
                 static_cast<std::int64_t>(rng() >> 1), static_cast<std::int64_t>(rng() >> 1)});
  }
  w.finish();
}

// Seconds to add one small run (10,000 events), the median of five.
double small_add(const std::string& file, const std::string& tag) {
  std::vector<double> t;
  for (int k = 0; k < 5; ++k) {
    const auto t0 = Clock::now();
    add_run(file, tag + "-small-" + std::to_string(k), 10000, static_cast<std::uint32_t>(k));
    t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[2];
}

std::uintmax_t store_bytes(const std::string& file) {
  std::uintmax_t n = fs::file_size(file);
  for (const auto& e : fs::directory_iterator(file + ".runs")) n += fs::file_size(e.path());
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  const int big_gib = argc > 1 ? std::atoi(argv[1]) : 10;
  const fs::path dir = fs::temp_directory_path() / ("tilelab-growth-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string empty = (dir / "empty.h5").string(), big = (dir / "big.h5").string(), many = (dir / "many.h5").string();

  // One ~1 GiB run (24-byte events, random), then copies of its file to reach big_gib.
  if (big_gib > 0) {
  const auto t0 = Clock::now();
  add_run(big, "gib-0", (std::uint64_t{1} << 30) / 28, 1);
  const double one_gib_s = std::chrono::duration<double>(Clock::now() - t0).count();
  std::printf("wrote a run of %.2f GiB in %.1f s\n", static_cast<double>(store_bytes(big)) / (1 << 30), one_gib_s);
  std::printf("add a 10,000-event run: empty store %.1f ms\n", 1e3 * small_add(empty, "e"));
  std::printf("add a 10,000-event run: %.2f GiB store %.1f ms\n", static_cast<double>(store_bytes(big)) / (1 << 30),
              1e3 * small_add(big, "a"));
  {
    h5::File index = h5::File::open(big, true);
    h5::Group runs = index.root().open_group("runs");
    for (int k = 1; k < big_gib; ++k) {
      const std::string id = "gib-" + std::to_string(k);
      fs::copy_file(big + ".runs/gib-0.h5", big + ".runs/" + id + ".h5");
      runs.link_external(id, "big.h5.runs/" + id + ".h5", "/run");
    }
  }
  std::printf("add a 10,000-event run: %.2f GiB store %.1f ms\n", static_cast<double>(store_bytes(big)) / (1 << 30),
              1e3 * small_add(big, "b"));
  fs::remove(big);
  fs::remove_all(big + ".runs");
  }

  // 1,000 small runs one by one: the time of each hundred.
  std::printf("1,000 runs of 1,000 events added one by one, seconds per hundred:");
  double total = 0;
  for (int h = 0; h < 10; ++h) {
    const auto t1 = Clock::now();
    for (int k = 0; k < 100; ++k) add_run(many, "r" + std::to_string(100 * h + k), 1000, static_cast<std::uint32_t>(k));
    const double s = std::chrono::duration<double>(Clock::now() - t1).count();
    total += s;
    std::printf(" %.2f", s);
    std::fflush(stdout);
  }
  std::printf("  (total %.1f s; index %.0f KiB)\n", total, static_cast<double>(fs::file_size(many)) / 1024);
  fs::remove_all(dir);
  return 0;
}
