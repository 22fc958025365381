// The LDS port a group of SIMDs shares (two on CDNA: timing.simds_per_lds_port).
// Requests are served in arrival order, one pass of the bank array every
// pass_clocks (the bank array's width over the port's bytes per clock); the
// bank model says how many passes a request takes from its lanes' addresses.
// Waiting requests sit in the port's FIFO (timing.lds_queue_depth), of which
// each SIMD may hold an equal share, so that none starves the others.  Data
// comes back in order: the first pass's lds_latency after it starts, the
// rest as the port moves them.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "sim/arch/arch.hpp"

namespace tilelab::timing {

class LdsPort {
 public:
  explicit LdsPort(const arch::Arch& a);

  // The first cycle >= c at which SIMD `side` (its index among the port's
  // SIMDs) finds room in its share of the FIFO: c when it has room.
  std::uint64_t room(int side, std::uint64_t c);

  struct Service {
    std::uint64_t start;      // the first pass begins (after every earlier request)
    std::uint64_t clocks;     // passes x pass_clocks: the port is busy this long
    std::uint64_t data_back;  // the last pass's data is back: start + clocks - pass_clocks + lds_latency
  };
  // A request of `passes` passes (at least 1) from SIMD `side` arriving at c.
  Service serve(int side, std::uint64_t c, int passes);

  int pass_clocks() const { return pass_clocks_; }

 private:
  int pass_clocks_, latency_;
  std::size_t share_;  // FIFO entries per SIMD
  std::uint64_t free_ = 0;
  std::vector<std::deque<std::uint64_t>> waiting_;  // per SIMD: start cycles still ahead, ascending
};

// The LDS ports of one CU: the port SIMD s uses and its side on that port.
inline int lds_port_of(const arch::Arch& a, int simd) { return simd / a.timing.simds_per_lds_port; }
inline int lds_port_side(const arch::Arch& a, int simd) { return simd % a.timing.simds_per_lds_port; }

}  // namespace tilelab::timing
