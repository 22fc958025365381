// Trace store speed and size (issue #4 targets): 10 million events written in
// under 5 s on one core at under 12 bytes per event on disk, for a realistic
// trace (repetitive pcs, increasing cycles); one wave's events read back from
// the 10-million-event file in under 50 ms.
// Run: build/bin/bench_traces [events] [waves]   (defaults 10000000, 1024)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <unistd.h>

#include "traces/store.hpp"

using namespace tilelab::traces;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  const std::uint64_t events = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
  const std::uint32_t waves = argc > 2 ? static_cast<std::uint32_t>(std::atoi(argv[2])) : 1024;
  std::string file = (std::filesystem::temp_directory_path() / ("tilelab-bench-" + std::to_string(getpid()) + ".h5")).string();
  std::filesystem::remove(file);
  RunInfo info;
  info.id = "bench";
  info.kind = "sim";
  info.utc_time = "2026-12-02T00:00:00Z";
  // A loop body of 40 instructions per wave, repeated; each wave issues every
  // ~4 cycles with occasional stalls, waves interleaved as a simulator emits them.
  std::mt19937 rng(1);
  std::vector<std::int64_t> clock(waves, 0);
  std::vector<std::uint32_t> step(waves, 0);
  auto t0 = Clock::now();
  {
    RunWriter w(file, info);
    for (std::uint64_t i = 0; i < events; ++i) {
      std::uint32_t wave = static_cast<std::uint32_t>(i % waves);
      std::uint32_t k = step[wave]++ % 40;
      std::uint32_t stall = (rng() & 15) == 0 ? 8 + (rng() & 63) : 0;
      clock[wave] += 4 + stall;
      EventRecord e{wave, 0x100u + 4u * k, static_cast<std::uint16_t>(k % 12), static_cast<std::uint8_t>(k % 5),
                    static_cast<std::uint8_t>(stall ? 1 : 0), stall, clock[wave], clock[wave] + (k % 5 == 2 ? 16 : 4)};
      w.add_event(e);
    }
    for (std::uint32_t v = 0; v < waves; ++v) w.add_wave({v, v / 4, static_cast<std::uint16_t>(v / 32), 0, 0, 0, clock[v]});
    w.finish();
  }
  double write_s = std::chrono::duration<double>(Clock::now() - t0).count();
  auto bytes = std::filesystem::file_size(file + ".runs/bench.h5");  // the run's own file
  Reader r(file);
  auto t1 = Clock::now();
  std::size_t got = r.wave_events("bench", waves / 2).size();
  double read_ms = std::chrono::duration<double, std::milli>(Clock::now() - t1).count();
  std::printf("events %llu, waves %u: write %.2f s (%.1f M events/s), %.2f bytes/event on disk, "
              "one wave (%zu events) read in %.1f ms\n",
              static_cast<unsigned long long>(events), waves, write_s, events / write_s / 1e6,
              static_cast<double>(bytes) / static_cast<double>(events), got, read_ms);
  std::filesystem::remove(file);
  std::filesystem::remove_all(file + ".runs");
  return 0;
}
