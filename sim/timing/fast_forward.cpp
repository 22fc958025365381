#include "sim/timing/fast_forward.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>
#include <tuple>

namespace tilelab::timing {

std::uint64_t extrapolated_end(std::vector<std::pair<std::uint64_t, std::uint64_t>> retired, std::uint64_t capacity,
                               std::uint64_t rounds_timed, std::uint64_t workgroups) {
  std::uint64_t lo = ~0ull, hi = 0;
  for (const auto& [end, instructions] : retired) lo = std::min(lo, instructions), hi = std::max(hi, instructions);
  if (static_cast<double>(hi) > 1.01 * static_cast<double>(lo)) return 0;
  std::sort(retired.begin(), retired.end());
  const std::uint64_t t1 = retired[capacity - 1].first, tn = retired[rounds_timed * capacity - 1].first;
  const double round = static_cast<double>(tn - t1) / static_cast<double>(rounds_timed - 1);
  const std::uint64_t rounds_left = (workgroups - rounds_timed * capacity + capacity - 1) / capacity;
  return tn + static_cast<std::uint64_t>(std::llround(round * static_cast<double>(rounds_left)));
}

namespace {

// What one kind of workgroup did: its wave-instructions (the smallest and
// largest seen) and its time, summed over the samples placed after `timed_from`.
struct Kind {
  std::uint64_t lo = ~0ull, hi = 0;
  double time_sum = 0;
  std::uint64_t timed = 0;
  bool alike() const { return static_cast<double>(hi) <= 1.01 * static_cast<double>(lo); }
  double time() const { return time_sum / static_cast<double>(timed); }
};

// The kinds by `axis`, or empty when two retired workgroups of one value differ.
std::map<std::uint32_t, Kind> kinds_by(int axis, const std::vector<TimedGroup>& retired, std::uint64_t timed_from) {
  std::map<std::uint32_t, Kind> kinds;
  for (const TimedGroup& g : retired) {
    Kind& k = kinds[g.id[static_cast<std::size_t>(axis)]];
    k.lo = std::min(k.lo, g.instructions), k.hi = std::max(k.hi, g.instructions);
    if (!k.alike()) return {};
    if (g.start > timed_from) k.time_sum += static_cast<double>(g.end - g.start), ++k.timed;
  }
  return kinds;
}

}  // namespace

std::optional<ScheduledEnd> scheduled_end(const std::vector<TimedGroup>& retired,
                                          const std::vector<ResidentGroup>& resident,
                                          const std::vector<WorkQueue>& queues, const std::vector<int>& queue_of,
                                          int per_cu, std::uint64_t timed_from, std::uint64_t now) {
  // The workgroups left: those on a CU and those queued for a simulated CU
  // (a sampled run's other XCDs do not run).
  std::vector<bool> taken(queues.size(), false);
  for (const int q : queue_of) taken[static_cast<std::size_t>(q)] = true;
  std::vector<GroupId> left;
  for (const ResidentGroup& g : resident) left.push_back(g.id);
  for (std::size_t qi = 0; qi < queues.size(); ++qi)
    if (taken[qi]) left.insert(left.end(), queues[qi].items.begin() + static_cast<std::ptrdiff_t>(queues[qi].next), queues[qi].items.end());
  for (int axis = 0; axis < 3; ++axis) {
    const std::map<std::uint32_t, Kind> kinds = kinds_by(axis, retired, timed_from);
    if (kinds.empty()) continue;
    const auto kind_of = [&](const GroupId& id) -> const Kind* {
      const auto it = kinds.find(id[static_cast<std::size_t>(axis)]);
      return it != kinds.end() && it->second.timed ? &it->second : nullptr;
    };
    bool known = std::all_of(left.begin(), left.end(), [&](const GroupId& id) { return kind_of(id) != nullptr; });
    // The pattern must have been seen across the grid: every other coordinate
    // that varies among the workgroups left varies among the retired ones too
    // (a grid whose first rounds all share one y says nothing about the next y).
    for (std::size_t o = 0; known && o < 3; ++o) {
      if (o == static_cast<std::size_t>(axis)) continue;
      std::uint32_t lo = ~0u, hi = 0;
      for (const TimedGroup& g : retired) lo = std::min(lo, g.id[o]), hi = std::max(hi, g.id[o]);
      known = lo < hi || std::all_of(left.begin(), left.end(), [&](const GroupId& id) { return id[o] == lo; });
    }
    if (!known) continue;

    ScheduledEnd s;
    s.axis = axis;
    for (const TimedGroup& g : retired) s.instructions += static_cast<double>(g.instructions);
    const auto add = [&](const Kind& k) { s.instructions += 0.5 * static_cast<double>(k.lo + k.hi); };
    // Every slot of every CU: when it frees, as (cycle, CU, slot), earliest first.
    using Slot = std::tuple<std::uint64_t, int, int>;
    std::vector<std::priority_queue<Slot, std::vector<Slot>, std::greater<>>> free(queues.size());
    std::vector<int> used(queue_of.size(), 0);
    for (const ResidentGroup& g : resident) {
      const Kind& k = *kind_of(g.id);
      add(k);
      const auto end = std::max(now, g.start + static_cast<std::uint64_t>(std::llround(k.time())));
      s.end = std::max(s.end, end);
      free[static_cast<std::size_t>(queue_of[static_cast<std::size_t>(g.cu)])].push({end, g.cu, used[static_cast<std::size_t>(g.cu)]++});
    }
    for (std::size_t cu = 0; cu < queue_of.size(); ++cu)
      for (int slot = used[cu]; slot < per_cu; ++slot)
        free[static_cast<std::size_t>(queue_of[cu])].push({now, static_cast<int>(cu), slot});
    for (std::size_t qi = 0; qi < queues.size(); ++qi) {
      if (!taken[qi]) continue;
      const WorkQueue& q = queues[qi];
      for (std::size_t i = q.next; i < q.items.size(); ++i) {
        const Kind& k = *kind_of(q.items[i]);
        add(k);
        auto [at, cu, slot] = free[qi].top();
        free[qi].pop();
        const std::uint64_t end = at + static_cast<std::uint64_t>(std::llround(k.time()));
        s.end = std::max(s.end, end);
        free[qi].push({end, cu, slot});
      }
    }
    return s;
  }
  return std::nullopt;
}

}  // namespace tilelab::timing
