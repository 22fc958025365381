// Times the chip has not given yet.  With several threads (cycle_model.cpp,
// "Threads"), the CUs of one quantum run at once and their L1 misses cannot
// reach the shared L2 in the order the single-threaded run sends them (CU 0's
// whole quantum first, then CU 1's ...).  Each CU therefore records its
// requests and goes on with pending cycles; at the quantum's end the requests
// go to the chip in that order, and every pending cycle is replaced by its
// cycle.  This works because nothing a CU decides within a quantum depends on
// such a cycle: the L2 answers no sooner than l2_latency - l1_latency clocks
// (280 on gfx950) after the request, later than the quantum's end (256), so
// every pending cycle stands for a cycle after it.
//
// A pending cycle is kPending | node.  A node's cycle is the largest of a
// known cycle and earlier nodes' cycles, plus a constant: what an
// instruction's completion is made of (its lines' returns, the L1's own
// time, the wave's previous load in vmcnt order, the L1 latency).  Every
// pending cycle compares greater than any real cycle, which is what the
// quantum needs of it: "not before the quantum's end".
#pragma once
#include <cstdint>
#include <vector>

#include "sim/timing/vector_memory.hpp"

namespace tilelab::timing {

class PendingTimes {
 public:
  static constexpr std::uint64_t kPending = std::uint64_t{1} << 63;
  static bool pending(std::uint64_t t) { return (t & kPending) != 0; }

  // A request to the memory beyond the L1, answered at flush().
  std::uint64_t defer(std::uint64_t cycle, std::uint64_t line, int bytes, bool store);
  // max(known, terms...) + add, a pending cycle when a term is one.
  std::uint64_t max_plus(std::uint64_t known, const std::uint64_t* terms, std::size_t count, std::uint64_t add);
  std::uint64_t max_plus(std::uint64_t known, const std::vector<std::uint64_t>& terms, std::uint64_t add) {
    return max_plus(known, terms.data(), terms.size(), add);
  }
  bool empty() const { return nodes_.empty(); }
  // Sends the deferred requests to `beyond` in the order they were made and
  // works out every node.
  void flush(MemoryBeyondL1& beyond);
  // The cycle `t` stands for (t itself when it is not a pending cycle); after flush().
  std::uint64_t value(std::uint64_t t) const;
  void clear();

 private:
  struct Node {
    std::uint64_t known = 0, add = 0, cycle = 0;
    std::uint32_t first = 0, terms = 0;  // in terms_
  };
  struct Request {
    std::uint64_t cycle, line;
    int bytes;
    bool store;
    std::uint32_t node;
  };
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> terms_;  // node indices
  std::vector<Request> requests_;
};

// The largest of several cycles, some of them perhaps pending cycles; finish()
// gives max + add (a pending cycle when any term was one).
class CycleMax {
 public:
  explicit CycleMax(PendingTimes* table) : table_(table) {}
  void add(std::uint64_t t) {
    if (!PendingTimes::pending(t)) known_ = t > known_ ? t : known_;
    else if (count_ < kInline) inline_[count_++] = t;
    else more_.push_back(t);
  }
  std::uint64_t finish(std::uint64_t add) {
    if (count_ == 0) return known_ + add;
    if (!more_.empty()) {  // rare: more pending cycles than fit inline
      more_.insert(more_.begin(), inline_, inline_ + count_);
      return table_->max_plus(known_, more_, add);
    }
    return table_->max_plus(known_, inline_, count_, add);
  }

 private:
  static constexpr std::size_t kInline = 32;
  PendingTimes* table_;
  std::uint64_t known_ = 0;
  std::uint64_t inline_[kInline];  // pending cycles, without an allocation per instruction
  std::size_t count_ = 0;
  std::vector<std::uint64_t> more_;
};

// The memory beyond one CU's L1 as the CU's vector memory sees it: `inner`
// (the CU's port into the chip) directly, or while `deferring` through the
// CU's PendingTimes.
class DeferringPort final : public MemoryBeyondL1 {
 public:
  DeferringPort(MemoryBeyondL1& inner, PendingTimes& table) : inner_(inner), table_(table) {}
  void set_deferring(bool on) { deferring_ = on; }
  std::uint64_t request(std::uint64_t cycle, std::uint64_t line, int bytes, bool store) override {
    return deferring_ ? table_.defer(cycle, line, bytes, store) : inner_.request(cycle, line, bytes, store);
  }
  std::uint64_t bytes_moved() const override { return inner_.bytes_moved(); }
  double busy_cycles() const override { return inner_.busy_cycles(); }

 private:
  MemoryBeyondL1& inner_;
  PendingTimes& table_;
  bool deferring_ = false;
};

}  // namespace tilelab::timing
