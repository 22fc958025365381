#include "sim/timing/lds_port.hpp"

#include <algorithm>

namespace tilelab::timing {

LdsPort::LdsPort(const arch::Arch& a)
    : pass_clocks_(std::max(1, a.lds.banks * a.lds.bank_bytes / a.timing.lds_port_bytes_per_clock)),
      latency_(a.timing.lds_latency),
      share_(static_cast<std::size_t>(std::max(1, a.timing.lds_queue_depth / a.timing.simds_per_lds_port))),
      waiting_(static_cast<std::size_t>(a.timing.simds_per_lds_port)) {}

std::uint64_t LdsPort::room(int side, std::uint64_t c) {
  std::deque<std::uint64_t>& q = waiting_[static_cast<std::size_t>(side)];
  while (!q.empty() && q.front() <= c) q.pop_front();  // started: left the FIFO
  // Full: room once the oldest request that would be one too many has started.
  return q.size() >= share_ ? q[q.size() - share_] : c;
}

LdsPort::Service LdsPort::serve(int side, std::uint64_t c, int passes) {
  const std::uint64_t pass = static_cast<std::uint64_t>(pass_clocks_);
  const std::uint64_t clocks = static_cast<std::uint64_t>(std::max(1, passes)) * pass;
  const std::uint64_t start = std::max(c, free_);
  free_ = start + clocks;
  waiting_[static_cast<std::size_t>(side)].push_back(start);
  return {start, clocks, start + clocks - pass + static_cast<std::uint64_t>(latency_)};
}

}  // namespace tilelab::timing
