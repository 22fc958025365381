// A wave's wait counters (vmcnt, lgkmcnt): the completion cycles of the
// operations it still has outstanding on one counter, and the questions the
// sequencer asks of them: how many are out at a cycle, and from which cycle
// at most n are (what `s_waitcnt vmcnt(n)` waits for).
//
// vmcnt's operations return in order (the vector memory path makes their
// completions ascend); lgkmcnt's need not (SMEM returns out of order with
// LDS), so the entries are kept unordered and the n-th is found on demand.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/timing/pending_times.hpp"

namespace tilelab::timing {

class WaitCounter {
 public:
  // An operation that completes at `done` (a pending cycle beside other CUs).
  void push(std::uint64_t done) { done_.push_back(done); }
  // Operations still out at `now` (completions after it).
  std::size_t count(std::uint64_t now) {
    retire(now);
    return done_.size();
  }
  // The first cycle >= now at which at most n remain outstanding: the
  // (size - n)-th completion, or now when no more than n are out.
  std::uint64_t until_at_most(std::size_t n, std::uint64_t now) {
    retire(now);
    if (done_.size() <= n) return now;
    std::vector<std::uint64_t> s(done_.begin(), done_.end());
    std::nth_element(s.begin(), s.begin() + static_cast<long>(s.size() - 1 - n), s.end());
    return s[s.size() - 1 - n];
  }
  // The last completion (0 when none is out): a wave ends no sooner.
  std::uint64_t last() const {
    std::uint64_t m = 0;
    for (std::uint64_t d : done_) m = std::max(m, d);
    return m;
  }
  // Operations not back before `t` (pending cycles count as after it).
  std::size_t at_least(std::uint64_t t) const {
    return static_cast<std::size_t>(std::count_if(done_.begin(), done_.end(), [&](std::uint64_t d) { return d >= t; }));
  }
  bool has_pending() const {
    return std::any_of(done_.begin(), done_.end(), [](std::uint64_t d) { return PendingTimes::pending(d); });
  }
  // Every pending cycle replaced by the cycle the chip gave it.
  void settle(const PendingTimes& p) {
    for (std::uint64_t& d : done_) d = p.value(d);
  }

 private:
  void retire(std::uint64_t now) { std::erase_if(done_, [&](std::uint64_t d) { return d <= now; }); }
  std::vector<std::uint64_t> done_;
};

}  // namespace tilelab::timing
