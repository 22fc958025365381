// Workgroup dispatch: which queue each workgroup of a grid waits in, and in
// which order.  With the chip model a queue is an XCD's (linear workgroup id
// i goes to XCD i mod X, chip-facts 3 [I]); the XCD's CUs take from it as
// they have room, a CU that finishes a workgroup taking the next (no whole
// rounds: compute_unit.cpp, place).  Without the chip each CU has its own
// queue and the grid is dealt to the CUs round robin.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace tilelab::timing {

// The workgroups one queue holds, in dispatch order, and the next to go.
struct WorkQueue {
  std::vector<std::array<std::uint32_t, 3>> items;  // workgroup ids (x, y, z)
  std::size_t next = 0;

  bool empty() const { return next >= items.size(); }
  const std::array<std::uint32_t, 3>& take() { return items[next++]; }
};

// The grid in linear id order (x fastest, then y, then z), workgroup i into
// queue i mod `queues`.  Queue 0 holds the most: ceil(n / queues).
std::vector<WorkQueue> deal_workgroups(const std::array<std::uint32_t, 3>& grid, int queues);

}  // namespace tilelab::timing
