// The compute unit's components, each alone (sim/timing: simd_unit, lds_port,
// wait_counters, dispatcher).  Expected values are worked out by hand from
// gfx950's arch figures, named beside each: valu_cycles 4, valu_latency 8,
// trans_cycles 8, trans_latency 16, issue_period 4; LDS 64 banks x 4 B over
// a 128 B/clock port (a pass every 2 clocks), lds_latency 60, an 8-entry
// FIFO per SIMD pair (4 per SIMD).
#include <gtest/gtest.h>

#include <random>

#include "sim/arch/arch.hpp"
#include "sim/timing/dispatcher.hpp"
#include "sim/timing/lds_port.hpp"
#include "sim/timing/simd_unit.hpp"
#include "sim/timing/wait_counters.hpp"

namespace tilelab {
namespace {

using timing::InstructionTiming;
using timing::Kind;
using timing::Reason;

InstructionTiming of(Kind k) {
  InstructionTiming it;
  it.kind = k;
  return it;
}

// A 4-pass MFMA with 16-byte sources as instruction_timing describes it:
// 16 clocks on the matrix core, plain VALU from slot 2 (1 + 16 B / 16),
// packed FP32 from slot 7 (passes + mfma_pk_valu_extra_slots 2 + 1 for 16 B).
InstructionTiming bf16_mfma() {
  InstructionTiming it = of(Kind::mfma);
  it.mfma_cycles = 16, it.passes = 4, it.valu_slot = 2, it.pk_valu_slot = 7;
  return it;
}

TEST(SimdUnit, ValuHoldsFourClocksAndItsResultIsReadyAfterTheLatency) {
  const arch::Arch a = arch::load_arch("gfx950");
  timing::SimdUnit s(a.timing);
  const auto v = s.issue_valu(of(Kind::valu), 100);
  EXPECT_EQ(v.held, 4);
  EXPECT_EQ(v.ready, 108u);  // valu_latency 8
  EXPECT_EQ(s.busy(of(Kind::valu), 103), std::make_pair(Reason::busy_valu, std::uint64_t{104}));
  EXPECT_EQ(s.busy(of(Kind::valu), 104), std::make_pair(Reason::none, std::uint64_t{104}));
  // A transcendental holds the VALU twice as long and is ready after 16.
  const auto t = s.issue_valu(of(Kind::trans), 104);
  EXPECT_EQ(t.held, 8);
  EXPECT_EQ(t.ready, 120u);
  EXPECT_EQ(s.busy(of(Kind::valu), 108).second, 112u);
}

TEST(SimdUnit, MfmaLetsPlainValuInFromItsSlotAndHoldsTheMatrixCore) {
  const arch::Arch a = arch::load_arch("gfx950");
  timing::SimdUnit s(a.timing);
  EXPECT_EQ(s.issue_mfma(bf16_mfma(), 0), 16u);
  // Slot 2 = 8 clocks for a plain VALU op; packed FP32 waits to slot 7 = 28.
  EXPECT_EQ(s.busy(of(Kind::valu), 4), std::make_pair(Reason::busy_valu, std::uint64_t{8}));
  EXPECT_EQ(s.busy(of(Kind::valu), 8).first, Reason::none);
  InstructionTiming pk = of(Kind::valu);
  pk.pk_f32 = true;
  EXPECT_EQ(s.busy(pk, 8), std::make_pair(Reason::busy_valu, std::uint64_t{28}));
  // A second MFMA waits for the matrix core (busy_mfma before busy_valu).
  EXPECT_EQ(s.busy(bf16_mfma(), 4), std::make_pair(Reason::busy_mfma, std::uint64_t{16}));
  EXPECT_EQ(s.matrix_core_free(), 16u);
  // A plain VALU op at slot 2 does not free packed FP32 any sooner.
  s.issue_valu(of(Kind::valu), 8);
  EXPECT_EQ(s.busy(pk, 12).second, 28u);
  // Other kinds never wait on the SIMD's units.
  EXPECT_EQ(s.busy(of(Kind::salu), 0).first, Reason::none);
}

TEST(LdsPort, PassesAreServedInArrivalOrderAndDataReturnsAfterTheLatency) {
  const arch::Arch a = arch::load_arch("gfx950");
  ASSERT_EQ(a.timing.simds_per_lds_port, 2);
  timing::LdsPort p(a);
  EXPECT_EQ(p.pass_clocks(), 2);  // 64 banks x 4 B / 128 B per clock
  // One pass at 10: the port busy 10..12, data back at 10 + 60.
  timing::LdsPort::Service s = p.serve(0, 10, 1);
  EXPECT_EQ(s.start, 10u);
  EXPECT_EQ(s.clocks, 2u);
  EXPECT_EQ(s.data_back, 70u);
  // A 4-pass (conflicted) request from the other SIMD at 11 waits for the first:
  // start 12, busy 8 clocks, its last pass starts at 18, data at 78.
  s = p.serve(1, 11, 4);
  EXPECT_EQ(s.start, 12u);
  EXPECT_EQ(s.clocks, 8u);
  EXPECT_EQ(s.data_back, 78u);
  // 0 passes (an op the bank model did not see) still takes one.
  EXPECT_EQ(p.serve(0, 0, 0).clocks, 2u);
}

TEST(LdsPort, EachSimdHoldsHalfOfTheFifo) {
  const arch::Arch a = arch::load_arch("gfx950");
  timing::LdsPort p(a);
  // SIMD 0 sends 5 one-pass requests at cycle 0: they start at 0, 2, 4, 6, 8.
  for (int i = 0; i < 5; ++i) p.serve(0, 0, 1);
  // At cycle 1 the first has started; 4 wait (starts 2, 4, 6, 8): SIMD 0's
  // share (8 / 2) is full until the oldest of them starts, at 2.
  EXPECT_EQ(p.room(0, 1), 2u);
  EXPECT_EQ(p.room(0, 2), 2u);  // at 2 it has started: room
  // SIMD 1's share is empty: room at once.
  EXPECT_EQ(p.room(1, 1), 1u);
}

TEST(LdsPort, PortsAndSidesFollowTheArchFile) {
  const arch::Arch a = arch::load_arch("gfx950");
  EXPECT_EQ(timing::lds_port_of(a, 0), 0);
  EXPECT_EQ(timing::lds_port_of(a, 1), 0);
  EXPECT_EQ(timing::lds_port_of(a, 2), 1);
  EXPECT_EQ(timing::lds_port_of(a, 3), 1);
  EXPECT_EQ(timing::lds_port_side(a, 3), 1);
  EXPECT_EQ(timing::lds_port_side(a, 2), 0);
}

TEST(WaitCounter, WaitcntWaitsForTheRightCompletion) {
  timing::WaitCounter w;
  for (std::uint64_t d : {50u, 20u, 90u, 70u}) w.push(d);  // lgkmcnt: out of order
  EXPECT_EQ(w.count(10), 4u);
  EXPECT_EQ(w.until_at_most(3, 10), 20u);  // one must return: the earliest
  EXPECT_EQ(w.until_at_most(1, 10), 70u);  // three must: the third earliest
  EXPECT_EQ(w.until_at_most(0, 10), 90u);
  EXPECT_EQ(w.until_at_most(4, 10), 10u);  // already at most 4
  EXPECT_EQ(w.last(), 90u);
  EXPECT_EQ(w.at_least(70), 2u);
  EXPECT_EQ(w.count(50), 2u);  // 20 and 50 are back at 50
  EXPECT_FALSE(w.has_pending());
}

// until_at_most(n) is the first cycle at which count() <= n, for every n, over
// 2,000 random counters (fixed seed).
TEST(WaitCounter, UntilAtMostIsTheFirstCycleCountAllows) {
  std::mt19937_64 rng(25);
  for (int trial = 0; trial < 2000; ++trial) {
    timing::WaitCounter w;
    const int ops = 1 + static_cast<int>(rng() % 12);
    for (int i = 0; i < ops; ++i) w.push(rng() % 200);
    const std::uint64_t now = rng() % 100;
    for (std::size_t n = 0; n <= static_cast<std::size_t>(ops); ++n) {
      const std::uint64_t t = w.until_at_most(n, now);
      timing::WaitCounter copy = w;
      ASSERT_LE(copy.count(t), n);
      if (t > now) {
        timing::WaitCounter before = w;
        ASSERT_GT(before.count(t - 1), n) << "trial " << trial;
      }
    }
  }
}

TEST(Dispatcher, WorkgroupIGoesToQueueIModTheQueues) {
  // A 3 x 2 grid over 4 XCDs: linear ids 0..5 = (0,0) (1,0) (2,0) (0,1) (1,1) (2,1).
  std::vector<timing::WorkQueue> q = timing::deal_workgroups({3, 2, 1}, 4);
  ASSERT_EQ(q.size(), 4u);
  using Id = std::array<std::uint32_t, 3>;
  EXPECT_EQ(q[0].items, (std::vector<Id>{{0, 0, 0}, {1, 1, 0}}));  // ids 0 and 4
  EXPECT_EQ(q[1].items, (std::vector<Id>{{1, 0, 0}, {2, 1, 0}}));  // ids 1 and 5
  EXPECT_EQ(q[2].items, (std::vector<Id>{{2, 0, 0}}));
  EXPECT_EQ(q[3].items, (std::vector<Id>{{0, 1, 0}}));
  EXPECT_EQ(q[0].take(), (Id{0, 0, 0}));
  EXPECT_EQ(q[0].take(), (Id{1, 1, 0}));
  EXPECT_TRUE(q[0].empty());
  // z is the slowest dimension.
  q = timing::deal_workgroups({1, 1, 3}, 2);
  EXPECT_EQ(q[0].items, (std::vector<Id>{{0, 0, 0}, {0, 0, 2}}));
  EXPECT_THROW(timing::deal_workgroups({1, 1, 1}, 0), std::invalid_argument);
}

}  // namespace
}  // namespace tilelab
