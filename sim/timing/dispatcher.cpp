#include "sim/timing/dispatcher.hpp"

#include <stdexcept>

namespace tilelab::timing {

std::vector<WorkQueue> deal_workgroups(const std::array<std::uint32_t, 3>& grid, int queues) {
  if (queues < 1) throw std::invalid_argument("deal_workgroups: at least one queue");
  std::vector<WorkQueue> out(static_cast<std::size_t>(queues));
  const std::uint64_t count = static_cast<std::uint64_t>(queues);
  std::uint64_t i = 0;
  for (std::uint32_t z = 0; z < grid[2]; ++z)
    for (std::uint32_t y = 0; y < grid[1]; ++y)
      for (std::uint32_t x = 0; x < grid[0]; ++x) out[i++ % count].items.push_back({x, y, z});
  return out;
}

}  // namespace tilelab::timing
