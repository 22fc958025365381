// The CU's vector memory path: the lanes' addresses coalesced into cache
// lines, the vector L1 (set-associative, LRU, write-through without
// allocation), and beyond it the memory the CU sees: the chip (L2 per XCD,
// MALL, HBM: chip_memory.hpp, through a CuPort), or for an arch file without
// a [memory] part a latency and this CU's equal share of the HBM bandwidth.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/arch/arch.hpp"

namespace tilelab::timing {

// Where an L1 miss or a write goes.
class MemoryBeyondL1 {
 public:
  virtual ~MemoryBeyondL1() = default;
  // `bytes` of cache line `line` (address / line size) requested at `cycle`;
  // the cycle the data (or the write's acknowledgement) is back at the L1.
  virtual std::uint64_t request(std::uint64_t cycle, std::uint64_t line, int bytes, bool store) = 0;
  virtual std::uint64_t bytes_moved() const = 0;
  // Cycles the path was transferring (its busy time).
  virtual double busy_cycles() const = 0;
};

// One CU's share: requests queue for the bandwidth in order and come back
// after the latency.
class CuShareOfMemory final : public MemoryBeyondL1 {
 public:
  CuShareOfMemory(double bytes_per_clock, int latency) : bytes_per_clock_(bytes_per_clock), latency_(latency) {}
  std::uint64_t request(std::uint64_t cycle, std::uint64_t line, int bytes, bool store) override;
  std::uint64_t bytes_moved() const override { return bytes_; }
  double busy_cycles() const override { return busy_; }

 private:
  double bytes_per_clock_;
  int latency_;
  double free_at_ = 0, busy_ = 0;
  std::uint64_t bytes_ = 0;
};

// The cache lines (address / line size) one wave-level access touches, each
// with the bytes it uses; a lane's bytes may straddle two lines.
struct LineUse {
  std::uint64_t line;
  int bytes;
};
// The lines the active lanes touch into `out` (replacing what it held: a
// buffer the caller keeps, so that no memory instruction allocates), in
// ascending order, each once.
void coalesce(const std::uint64_t* addresses, std::uint64_t active, int bytes_per_lane, int line_bytes,
              std::vector<LineUse>& out);

class PendingTimes;

class VectorMemory {
 public:
  // `pending`: where cycles the chip has not given yet (pending cycles) are
  // made (a CU running its quantum beside others: pending_times.hpp); null
  // when `beyond` always answers at once.
  VectorMemory(const arch::Timing& t, MemoryBeyondL1& beyond, PendingTimes* pending = nullptr);
  // One VMEM instruction whose addresses the CU starts processing at `start`:
  // the cycle its data is in the registers (loads) or its writes are
  // acknowledged (stores).
  std::uint64_t access(std::uint64_t start, const std::vector<LineUse>& lines, bool store);
  // The earliest cycle at which the L1 misses in flight leave room for `bytes`
  // more (== now when there is room).
  std::uint64_t room_for(std::uint64_t now, int bytes);

  // Replaces every pending cycle the L1 holds (lines' arrival, misses in flight) by its cycle.
  void settle(const PendingTimes& pending);

  std::uint64_t l1_hits() const { return hits_; }
  std::uint64_t l1_misses() const { return misses_; }

 private:
  struct Way {
    std::uint64_t line = ~0ull, last_use = 0, ready = 0;
  };
  Way* find(std::uint64_t line);
  Way& victim(std::uint64_t line);

  const arch::Timing& t_;
  MemoryBeyondL1& beyond_;
  PendingTimes* pending_;
  int sets_;
  std::vector<Way> ways_;  // sets_ x t_.l1_ways
  std::uint64_t use_clock_ = 0, hits_ = 0, misses_ = 0;
  double l1_free_ = 0;
  struct InFlight {
    std::uint64_t back;
    int bytes;
  };
  // Ascending `back`, from in_flight_head_ on: a vector whose front is
  // dropped by moving the head (and compacted now and then), because a
  // deque's blocks were allocated and freed as the queue slid along.
  std::vector<InFlight> in_flight_;
  std::size_t in_flight_head_ = 0;
  long in_flight_bytes_ = 0;
};

}  // namespace tilelab::timing
