// The chip below the CUs' L1s: one L2 per XCD (set-associative, LRU,
// write-back, write-allocate, hashed over its channels), each XCD's link to
// the IODs, the memory-side Infinity Cache (MALL) and HBM as stacks of
// channels.  Where a line goes is the address map's (address_map.hpp).  Every
// figure comes from the arch file's [memory] part.
//
// Time: the CUs advance together in quanta (cycle_model.cpp), so requests
// reach this model roughly, not exactly, in time order.  Every bandwidth is
// therefore a calendar of fixed-width time buckets, each holding the bytes
// the unit can move in it: a request takes room from the bucket of its
// cycle onward and is done where its last byte fits.  The outcome does not
// depend on the order of requests within a bucket, only on which come first
// when a bucket overflows.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/timing/address_map.hpp"
#include "sim/timing/fetch_footprint.hpp"
#include "sim/timing/vector_memory.hpp"

namespace tilelab::timing {

// A unit that moves `bytes_per_clock`, as a calendar of `bucket`-clock buckets.
class BandwidthCalendar {
 public:
  explicit BandwidthCalendar(double bytes_per_clock, int bucket = 16);
  // `bytes` asked for at `cycle`: the cycle the last of them has moved
  // (never before cycle + bytes / bytes_per_clock).
  std::uint64_t reserve(std::uint64_t cycle, double bytes);
  double bytes_moved() const { return moved_; }
  double bytes_per_clock() const { return rate_; }

 private:
  double rate_, capacity_;  // per clock, per bucket
  int bucket_;
  std::uint64_t base_ = 0;  // the first bucket kept
  std::vector<double> used_;  // from bucket base_ on (a vector: a deque's blocks came and went as it slid)
  double moved_ = 0;
};

// A set-associative, LRU, write-back cache of lines (tags only: the values
// live in the emulator's memory).  A line also keeps when its fill was asked
// for and when its data arrives, so that a request for a line still on its
// way waits for that fill (it is merged into the miss, as a cache's miss
// status registers do) instead of being served at the hit latency.
class LineCache {
 public:
  LineCache(long long bytes, int line_bytes, int ways);
  struct Outcome {
    bool hit = false;
    bool evicted_dirty = false;
    std::uint64_t victim = 0;  // the dirty line written back (when evicted_dirty)
    // On a hit: the cycle its fill was asked for and the cycle its data
    // arrives (both 0 for a line that never waited on a fill).
    std::uint64_t fill_asked = 0, fill_ready = 0;
    std::size_t way = 0;  // where the line now is (for fill())
  };
  // Looks `line` up; on a miss allocates it (LRU victim).  `dirty` marks it written.
  Outcome access(std::uint64_t line, bool dirty);
  // Records the fill of the line `o` allocated: asked for at `asked`, its data there at `ready`.
  void fill(const Outcome& o, std::uint64_t asked, std::uint64_t ready);
  // Drops `line` if present (its data is stale).
  void invalidate(std::uint64_t line);
  // Every dirty line, in set order; they are clean afterwards.
  std::vector<std::uint64_t> take_dirty();
  std::uint64_t valid_lines() const;
  bool holds(std::uint64_t line) const;
  // Lines made dirty (a clean or new line written): each is written back
  // once, evicted or at the kernel's end.
  std::uint64_t dirtied() const { return dirtied_; }

 private:
  // Each way's state in three arrays, so that a lookup reads a set's tags
  // (two cache lines for 16 ways) and a miss its use times, not every field
  // of every way.  All zero is an empty way, so that the arrays can live in
  // memory the OS hands out zeroed and maps only where a set is touched: the
  // MALL's 2 M ways (80 MB) cost nothing until used, where filling them in
  // took most of a small run's time (the MALL's in huge pages: zeroed()).
  struct Fill {
    std::uint64_t asked = 0, ready = 0;
    bool dirty = false;
  };
  struct Unmap {
    std::size_t bytes = 0;
    void operator()(void* p) const;
  };
  template <class T>
  using Zeroed = std::unique_ptr<T[], Unmap>;
  template <class T>
  static Zeroed<T> zeroed(std::size_t n);
  std::size_t set_of(std::uint64_t line) const;
  std::uint64_t sets_;
  int ways_;
  std::size_t size_;
  Zeroed<std::uint64_t> tags_;      // the line + 1; 0: empty
  Zeroed<std::uint64_t> last_use_;  // 0: never (an empty way is the first victim)
  Zeroed<Fill> fills_;
  std::uint64_t clock_ = 0, dirtied_ = 0;
};

// The cycle a request made at `cycle` that hit the line of `o` has its data:
// `served` (the cache's own hit time) or, while the line's fill is still on
// its way, that fill's arrival.  A request asked before the fill it finds
// (requests reach the chip up to a quantum out of time order) waits as long
// after its own cycle as the fill does after its own.
std::uint64_t merged_with_fill(const LineCache::Outcome& o, std::uint64_t cycle, std::uint64_t served);

// Traffic per level, in AMD's counter terms (TCC = L2, EA = its requests to memory).
struct ChipCounters {
  std::uint64_t l2_requests = 0, l2_hits = 0, l2_misses = 0, l2_reads = 0, l2_writes = 0;
  std::uint64_t l2_writebacks = 0;                  // dirty lines evicted to memory
  std::uint64_t ea_read_requests = 0, ea_write_requests = 0;  // lines from/to memory (128 B each)
  std::uint64_t mall_hits = 0, mall_misses = 0;
  std::uint64_t hbm_bytes = 0;
};

// One XCD's traffic over one window of the run's time: the Perfetto counter
// tracks (L2 hit rate, bytes to and from HBM) and the store's `xcd_counters`.
struct CounterWindow {
  std::uint64_t l2_requests = 0, l2_hits = 0, hbm_bytes = 0;
};

// Counts per XCD over windows of `width` cycles, starting at 1024; when a run
// outlasts `max_windows` windows the width doubles and neighbouring windows
// merge, so a long run keeps at most that many (the windows depend on the
// cycles of the requests only, not on the order they arrive in).
class CounterWindows {
 public:
  static constexpr std::uint64_t kFirstWidth = 1024;
  explicit CounterWindows(int xcds, std::size_t max_windows = 4096);
  CounterWindow& at(int xcd, std::uint64_t cycle);
  std::uint64_t width() const { return width_; }
  const std::vector<std::vector<CounterWindow>>& per_xcd() const { return windows_; }

 private:
  void widen();
  std::size_t max_;
  std::uint64_t width_ = kFirstWidth;
  std::vector<std::vector<CounterWindow>> windows_;
};

class ChipMemory {
 public:
  // `xcds` L2s (a run on fewer CUs than the chip still has every L2 of the
  // XCDs it uses); line = timing.l1_line_bytes.  `share`: the fraction of the
  // memory side's bandwidth (MALL channels, HBM) these XCDs get (a sampled
  // run: one XCD of X gets 1/X); the MALL's capacity stays whole.
  ChipMemory(const arch::Arch& a, int xcds, double share = 1.0);
  // A line request from a CU of XCD `xcd` leaving its L1 at `cycle`: the cycle
  // its data is back at the L1 (loads) or the write is acknowledged (stores).
  std::uint64_t request(int xcd, std::uint64_t cycle, std::uint64_t line, int bytes, bool store);
  ChipCounters counters() const;  // summed over the XCDs
  const std::vector<ChipCounters>& per_xcd() const { return xcd_counters_; }
  // Busy clocks of each level, summed over its units (for utilisation).
  double l2_busy() const;
  double mall_busy() const;
  double hbm_busy() const;
  double fabric_busy() const;
  std::uint64_t bytes_beyond_l1() const { return bytes_beyond_l1_; }
  // The kernel's end: its release writes every dirty L2 line back (agent-scope
  // release is buffer_wbl2, chip-facts 5), from `cycle` on, through each
  // XCD's link to HBM.  Returns the cycle the last write is done (`cycle`
  // when nothing was dirty) and the lines written, all XCDs together.
  // `dirty_scale` > 1 (a fast-forwarded run stopped early): the L2s are taken
  // to hold that many times the dirty lines they hold now, up to their size
  // times the share of their lines that is dirty now (an L2 that is still
  // filling keeps its mix of read and written lines); the lines beyond those
  // held are spread over the stacks.
  std::pair<std::uint64_t, std::uint64_t> write_back_at_end(std::uint64_t cycle, double dirty_scale = 1);
  const CounterWindows& windows() const { return windows_; }
  // Every line read from HBM from now on is also reported to `f` (a scaled
  // run's estimate of the chip's fetches: fetch_footprint.hpp); nullptr stops it.
  void track_fetches(FetchFootprint* f) { footprint_ = f; }
  std::uint64_t l2_lines() const;  // of one XCD's L2
  std::uint64_t l2_lines_dirtied() const;  // summed over the L2s (LineCache::dirtied)
  bool l2s_filled(double fraction) const;  // every L2 holds at least that share of its lines

 private:
  std::uint64_t from_memory(int xcd, std::uint64_t cycle, std::uint64_t line);
  void write_back(int xcd, std::uint64_t cycle, std::uint64_t line);
  BandwidthCalendar& hbm_of(std::uint64_t line);  // the line's HBM channel (the pool in a sampled run)
  BandwidthCalendar& mall_of(std::uint64_t line);  // the line's MALL channel (likewise)

  const arch::MemorySystem& m_;
  AddressMap map_;
  int line_bytes_, l1_latency_;
  struct Xcd {
    LineCache l2;
    std::vector<BandwidthCalendar> read, write;  // per channel
    BandwidthCalendar link;
  };
  std::vector<Xcd> xcds_;
  LineCache mall_;
  std::vector<BandwidthCalendar> mall_channels_, hbm_;  // per channel (a full run) or one pool (sampled)
  std::vector<ChipCounters> xcd_counters_;  // each XCD's traffic (the MALL's and HBM's by the XCD asking)
  CounterWindows windows_;                  // the same over time
  std::uint64_t bytes_beyond_l1_ = 0;
  FetchFootprint* footprint_ = nullptr;
};

// One CU's way into the chip: its XCD's L2.
class CuPort final : public MemoryBeyondL1 {
 public:
  CuPort(ChipMemory& chip, int xcd) : chip_(chip), xcd_(xcd) {}
  std::uint64_t request(std::uint64_t cycle, std::uint64_t line, int bytes, bool store) override {
    bytes_ += static_cast<std::uint64_t>(bytes);
    return chip_.request(xcd_, cycle, line, bytes, store);
  }
  std::uint64_t bytes_moved() const override { return bytes_; }
  double busy_cycles() const override { return 0; }  // the chip's levels report their own busy time

 private:
  ChipMemory& chip_;
  int xcd_;
  std::uint64_t bytes_ = 0;
};

}  // namespace tilelab::timing
