#include "sim/timing/sqc.hpp"

namespace tilelab::timing {

SqcCache::SqcCache(int bytes, int ways, int line_bytes, int chip_line_bytes)
    : tags_(bytes, line_bytes, ways), ready_(static_cast<std::size_t>(bytes / line_bytes)), line_bytes_(line_bytes),
      chip_line_bytes_(chip_line_bytes) {}

// The fill of `line`, just allocated in `way`: the chip line holding it,
// asked for through the port; its data is there when the port says.
std::uint64_t SqcCache::request(std::size_t way, std::uint64_t line, std::uint64_t cycle, MemoryBeyondL1& port) {
  const std::uint64_t chip_line = line * static_cast<std::uint64_t>(line_bytes_) / static_cast<std::uint64_t>(chip_line_bytes_);
  const std::uint64_t back = port.request(cycle, chip_line, line_bytes_, false);
  ready_[way] = back;
  if (PendingTimes::pending(back)) unsettled_.push_back(way);
  return back;
}

// Tagged sequential prefetch (Smith, "Cache Memories", ACM Computing Surveys
// 1982): every fetch of a line, hit or miss, makes sure the next `prefetch`
// lines are there or on their way, so a wave running straight-line code
// keeps that many lines ahead of its pc in flight.
std::uint64_t SqcCache::fetch(std::uint64_t address, std::uint64_t cycle, MemoryBeyondL1& port, int prefetch) {
  const std::uint64_t line = address / static_cast<std::uint64_t>(line_bytes_);
  const LineCache::Outcome o = tags_.access(line, false);
  std::uint64_t ready = cycle;
  if (o.hit) {
    ++hits_;
    const std::uint64_t r = ready_[o.way];
    if (PendingTimes::pending(r) || r > cycle) ready = r;
  } else {
    ++misses_;
    ready = request(o.way, line, cycle, port);
  }
  for (int k = 1; k <= prefetch; ++k) {
    const std::uint64_t next = line + static_cast<std::uint64_t>(k);
    if (tags_.holds(next)) continue;
    request(tags_.access(next, false).way, next, cycle, port);
  }
  return ready;
}

void SqcCache::settle(const PendingTimes& pending) {
  for (std::size_t way : unsettled_) ready_[way] = pending.value(ready_[way]);
  unsettled_.clear();
}

}  // namespace tilelab::timing
