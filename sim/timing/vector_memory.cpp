#include "sim/timing/vector_memory.hpp"

#include "sim/timing/pending_times.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace tilelab::timing {

std::uint64_t CuShareOfMemory::request(std::uint64_t cycle, std::uint64_t, int bytes, bool) {
  const double start = std::max(free_at_, static_cast<double>(cycle));
  const double transfer = bytes / bytes_per_clock_;
  free_at_ = start + transfer;
  busy_ += transfer;
  bytes_ += static_cast<std::uint64_t>(bytes);
  return static_cast<std::uint64_t>(std::ceil(free_at_)) + static_cast<std::uint64_t>(latency_);
}

void coalesce(const std::uint64_t* addresses, std::uint64_t active, int bytes_per_lane, int line_bytes,
              std::vector<LineUse>& out) {
  const int shift = std::countr_zero(static_cast<unsigned>(line_bytes));
  std::uint64_t lines[128];
  int bytes[128];
  int n = 0;
  auto add = [&](std::uint64_t line, int b) {
    for (int i = n - 1; i >= 0 && i >= n - 4; --i)  // neighbouring lanes mostly share a line
      if (lines[i] == line) {
        bytes[i] += b;
        return;
      }
    lines[n] = line, bytes[n] = b, ++n;
  };
  for (std::uint64_t ex = active; ex; ex &= ex - 1) {
    const std::uint64_t a = addresses[std::countr_zero(ex)];
    const std::uint64_t first = a >> shift, last = (a + static_cast<std::uint64_t>(bytes_per_lane) - 1) >> shift;
    if (first == last) {
      add(first, bytes_per_lane);
    } else {
      const int in_first = static_cast<int>((last << shift) - a);
      add(first, in_first);
      add(last, bytes_per_lane - in_first);
    }
  }
  out.clear();
  for (int i = 0; i < n; ++i) out.push_back({lines[i], bytes[i]});
  auto before = [](const LineUse& x, const LineUse& y) { return x.line < y.line; };
  if (!std::is_sorted(out.begin(), out.end(), before)) std::sort(out.begin(), out.end(), before);  // lanes mostly ascend
  std::size_t k = 0;  // merge the same line seen apart
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (k && out[k - 1].line == out[i].line) out[k - 1].bytes += out[i].bytes;
    else out[k++] = out[i];
  }
  out.resize(k);
  for (LineUse& u : out) u.bytes = std::min(u.bytes, line_bytes);  // lanes reading the same bytes share them
}

VectorMemory::VectorMemory(const arch::Timing& t, MemoryBeyondL1& beyond, PendingTimes* pending)
    : t_(t), beyond_(beyond), pending_(pending), sets_(t.l1_bytes / (t.l1_line_bytes * t.l1_ways)),
      ways_(static_cast<std::size_t>(sets_) * static_cast<std::size_t>(t.l1_ways)) {}

VectorMemory::Way* VectorMemory::find(std::uint64_t line) {
  Way* set = &ways_[static_cast<std::size_t>(line % static_cast<std::uint64_t>(sets_)) * static_cast<std::size_t>(t_.l1_ways)];
  for (int w = 0; w < t_.l1_ways; ++w)
    if (set[w].line == line) return &set[w];
  return nullptr;
}

VectorMemory::Way& VectorMemory::victim(std::uint64_t line) {
  Way* set = &ways_[static_cast<std::size_t>(line % static_cast<std::uint64_t>(sets_)) * static_cast<std::size_t>(t_.l1_ways)];
  Way* v = &set[0];
  for (int w = 1; w < t_.l1_ways; ++w)
    if (set[w].last_use < v->last_use) v = &set[w];
  return *v;
}

std::uint64_t VectorMemory::room_for(std::uint64_t now, int bytes) {
  while (in_flight_head_ < in_flight_.size() && in_flight_[in_flight_head_].back <= now)
    in_flight_bytes_ -= in_flight_[in_flight_head_++].bytes;
  if (in_flight_head_ > 64 && 2 * in_flight_head_ > in_flight_.size()) {
    in_flight_.erase(in_flight_.begin(), in_flight_.begin() + static_cast<long>(in_flight_head_));
    in_flight_head_ = 0;
  }
  long over = in_flight_bytes_ + bytes - t_.vmem_inflight_bytes;
  if (over <= 0 || in_flight_head_ == in_flight_.size()) return now;
  for (std::size_t i = in_flight_head_; i < in_flight_.size(); ++i) {
    over -= in_flight_[i].bytes;
    if (over <= 0) return in_flight_[i].back;
  }
  return in_flight_.back().back;
}

std::uint64_t VectorMemory::access(std::uint64_t start, const std::vector<LineUse>& lines, bool store) {
  // The L1 moves the bytes the lanes asked for at its bandwidth, one
  // instruction after another (a miss fetches the whole line from beyond).
  int bytes = 0;
  for (const LineUse& u : lines) bytes += u.bytes;
  const double transfer = bytes / t_.l1_bytes_per_clock;
  l1_free_ = std::max(l1_free_, static_cast<double>(start)) + transfer;
  CycleMax done(pending_);
  done.add(static_cast<std::uint64_t>(std::ceil(l1_free_)));
  for (const LineUse& u : lines) {
    ++use_clock_;
    Way* w = find(u.line);
    if (store) {  // write-through, no allocation on a miss
      if (w) w->last_use = use_clock_;
      done.add(beyond_.request(start, u.line, u.bytes, true));
      continue;
    }
    if (w) {
      ++hits_;
      w->last_use = use_clock_;
      done.add(w->ready);  // the line's data may still be on its way
      done.add(start);
    } else {
      ++misses_;
      const std::uint64_t ready = beyond_.request(start, u.line, t_.l1_line_bytes, false);
      Way& v = victim(u.line);
      v.line = u.line, v.last_use = use_clock_, v.ready = ready;
      // Kept in order of return: with the chip, a later miss may be back first.
      in_flight_.insert(std::upper_bound(in_flight_.begin() + static_cast<long>(in_flight_head_), in_flight_.end(), ready,
                                         [](std::uint64_t t, const InFlight& f) { return t < f.back; }),
                        InFlight{ready, t_.l1_line_bytes});
      in_flight_bytes_ += t_.l1_line_bytes;
      done.add(ready);
    }
  }
  return done.finish(static_cast<std::uint64_t>(store ? 0 : t_.l1_latency));
}

void VectorMemory::settle(const PendingTimes& pending) {
  for (Way& w : ways_) w.ready = pending.value(w.ready);
  bool any = false;
  const auto live = in_flight_.begin() + static_cast<long>(in_flight_head_);
  for (auto f = live; f != in_flight_.end(); ++f) any = any || PendingTimes::pending(f->back), f->back = pending.value(f->back);
  // Pending cycles sat at the end; in return order again (equal returns in any
  // order: they are alike).
  if (any) std::stable_sort(live, in_flight_.end(), [](const InFlight& a, const InFlight& b) { return a.back < b.back; });
}

}  // namespace tilelab::timing
