// The CU's sequencer cache (SQC): the instruction cache and the scalar data
// cache in front of the L2, each a small read-only cache of 64 B lines
// (timing.instruction_cache_* and scalar_cache_*).  On MI300X and MI355X
// each is shared by two CUs (ROCm's GPU specifications); here each CU has
// its own, so the second CU of a pair pays its own cold misses.
//
// Why it matters: a kernel starts with both caches cold.  Its first
// instructions and its kernel arguments come from HBM (the first CU of an
// XCD) or the L2 (the others), a round trip of 400–640 clocks before the
// first global load can even be addressed; a kernel of 3–5 µs spends a
// tenth of its time there.  Before this component a scalar load was always
// a hit (timing.smem_latency) and instructions were free.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/timing/chip_memory.hpp"
#include "sim/timing/pending_times.hpp"

namespace tilelab::timing {

// Where a kernel's code lives in the chip's address space: at kCodeBase plus
// its offset in the code object (no buffer is there).  Its lines meet the
// kernel's data in the L2, the MALL and HBM.
constexpr std::uint64_t kCodeBase = std::uint64_t{0x7f} << 40;

class SqcCache {
 public:
  // `bytes` in `ways`-way sets of `line_bytes` lines; its misses go to the
  // chip in lines of `chip_line_bytes` (each SQC line inside one of them).
  SqcCache(int bytes, int ways, int line_bytes, int chip_line_bytes);

  // The cycle the line holding byte `address` is there for a request made at
  // `cycle`: `cycle` on a hit whose fill is done, the fill's arrival while it
  // is on its way, else a new fill through `port` (a pending cycle when the
  // port defers: a CU beside others).  Every fetch, hit or miss, also asks
  // for those of the next `prefetch` lines that are absent, at the same
  // cycle (tagged prefetch, sqc.cpp).
  std::uint64_t fetch(std::uint64_t address, std::uint64_t cycle, MemoryBeyondL1& port, int prefetch = 0);
  // Every fill's pending cycle replaced by the cycle the chip gave it (at the
  // quantum's end, before the pending nodes are cleared).
  void settle(const PendingTimes& pending);
  std::uint64_t hits() const { return hits_; }
  std::uint64_t misses() const { return misses_; }

 private:
  std::uint64_t request(std::size_t way, std::uint64_t line, std::uint64_t cycle, MemoryBeyondL1& port);
  LineCache tags_;
  std::vector<std::uint64_t> ready_;  // per way: when its line's data is there
  std::vector<std::size_t> unsettled_;  // ways whose ready_ is a pending cycle
  int line_bytes_, chip_line_bytes_;
  std::uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace tilelab::timing
