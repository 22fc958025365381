// The fast-forward: once a grid's first rounds of workgroups have been
// simulated, the time the rest would take, from what those rounds did.  Two
// cases, tried in this order:
//  - a regular grid (every workgroup issued the same wave-instructions within
//    1%): the rest follow at the rate of the timed rounds (extrapolated_end);
//  - a periodic grid, whose workgroups differ but each one's work is set by
//    one coordinate of its id (causal attention: blockIdx.x, the query block,
//    decides how many key tiles it reads): the rest are dealt to the CUs as
//    the dispatcher deals them, each taking the time its kind took in the
//    timed rounds (scheduled_end; the model times such grids for 8 rounds).
// Anything else runs in full.  Both decide from simulated quantities only, so
// the same run gives the same answer.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "sim/timing/dispatcher.hpp"

namespace tilelab::timing {

// The regular case, once `rounds_timed` rounds of `capacity` workgroups
// (those the simulated CUs hold at once) have retired, from the retired
// workgroups' (end cycle, wave-instructions): the run's end when every
// workgroup issued the same wave-instructions within 1%, 0 when not.  Rounds
// 2..rounds_timed set the round time (round 1 holds the launch and the cold
// caches); the rounds left after them (`workgroups` in all, a partial last
// round counted whole: a round's workgroups start together) follow at that
// rate.
std::uint64_t extrapolated_end(std::vector<std::pair<std::uint64_t, std::uint64_t>> retired, std::uint64_t capacity,
                               std::uint64_t rounds_timed, std::uint64_t workgroups);

using GroupId = std::array<std::uint32_t, 3>;  // (x, y, z)

// A workgroup the simulation saw: placed at `start` on its CU, done at `end`
// (retired), with the wave-instructions its waves issued.
struct TimedGroup {
  GroupId id{};
  std::uint64_t start = 0, end = 0, instructions = 0;
};

// A workgroup still on a CU when the simulation stops: `cu` indexes the CUs
// the run simulates.
struct ResidentGroup {
  GroupId id{};
  int cu = 0;
  std::uint64_t start = 0;
};

struct ScheduledEnd {
  std::uint64_t end = 0;         // the last workgroup's end
  int axis = 0;                  // the coordinate that sets a workgroup's work (0: x, 1: y, 2: z)
  double instructions = 0;       // wave-instructions of every workgroup of the queues, retired, resident and left
};

// The periodic case.  `retired`: the workgroups done so far; `resident`: those
// on a CU at cycle `now`; `queues` from their `next` on: those not placed;
// CU c takes from queues[queue_of[c]], `per_cu` workgroups at a time.
// A kind is one value of a coordinate (x, else y, else z) such that every
// retired workgroup of that value issued the same wave-instructions within
// 1%; its time is the mean (end - start) of its retired workgroups that were
// placed after `timed_from` (the caller passes the end of the first round:
// its workgroups start in step, on cold caches).  Every resident or waiting
// workgroup must be of a kind so timed, and every other coordinate that
// varies among those left must vary among the retired ones, else nullopt
// (the run goes on; the caller tries again later or runs it in full).  A resident workgroup ends at
// max(now, start + its kind's time); then, in cycle order (ties: the lower CU,
// then the lower slot), each slot that frees takes the next workgroup of its
// CU's queue, which ends its kind's time later.
std::optional<ScheduledEnd> scheduled_end(const std::vector<TimedGroup>& retired,
                                          const std::vector<ResidentGroup>& resident,
                                          const std::vector<WorkQueue>& queues, const std::vector<int>& queue_of,
                                          int per_cu, std::uint64_t timed_from, std::uint64_t now);

}  // namespace tilelab::timing
