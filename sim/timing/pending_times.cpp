#include "sim/timing/pending_times.hpp"

#include <algorithm>

namespace tilelab::timing {

std::uint64_t PendingTimes::defer(std::uint64_t cycle, std::uint64_t line, int bytes, bool store) {
  const auto node = static_cast<std::uint32_t>(nodes_.size());
  nodes_.push_back({});
  requests_.push_back({cycle, line, bytes, store, node});
  return kPending | node;
}

std::uint64_t PendingTimes::max_plus(std::uint64_t known, const std::uint64_t* terms, std::size_t count, std::uint64_t add) {
  Node n;
  n.known = known;
  n.add = add;
  n.first = static_cast<std::uint32_t>(terms_.size());
  for (std::size_t i = 0; i < count; ++i)
    if (const std::uint64_t t = terms[i]; pending(t)) terms_.push_back(static_cast<std::uint32_t>(t & ~kPending));
    else n.known = std::max(n.known, t);
  n.terms = static_cast<std::uint32_t>(terms_.size()) - n.first;
  if (n.terms == 0) return n.known + add;
  nodes_.push_back(n);
  return kPending | (nodes_.size() - 1);
}

void PendingTimes::flush(MemoryBeyondL1& beyond) {
  // A request's node has no terms; every other node refers to earlier ones
  // only, so one pass in creation order works them all out.
  for (const Request& r : requests_) nodes_[r.node].known = beyond.request(r.cycle, r.line, r.bytes, r.store);
  for (Node& n : nodes_) {
    std::uint64_t c = n.known;
    for (std::uint32_t k = 0; k < n.terms; ++k) c = std::max(c, nodes_[terms_[n.first + k]].cycle);
    n.cycle = c + n.add;
  }
}

std::uint64_t PendingTimes::value(std::uint64_t t) const {
  return pending(t) ? nodes_[static_cast<std::size_t>(t & ~kPending)].cycle : t;
}

void PendingTimes::clear() {
  nodes_.clear();
  terms_.clear();
  requests_.clear();
}

}  // namespace tilelab::timing
