// sim/timing/fast_forward's periodic case, worked by hand, and on a real
// periodic grid (causal attention) against the same run simulated in full.
#include "sim/timing/fast_forward.hpp"

#include <gtest/gtest.h>

#include "sim/arch/arch.hpp"
#include "sim/timing/cycle_model.hpp"
#include "tests/common/run_suite.hpp"

using namespace tilelab;
using timing::GroupId;
using timing::ResidentGroup;
using timing::TimedGroup;
using timing::WorkQueue;

namespace {

// Two CUs of one slot, one queue; a workgroup's work is set by x (x = 0: 10
// wave-instructions, 100 cycles; x = 1: 30, 300).  The first round (A, B)
// ends at 100; those placed after it are timed: C and F (x = 0, 100 each), E
// (x = 1, 300).  At cycle 500 CU 0 is free and CU 1 holds G (x = 1, placed
// at 400: it ends at 700).  Left: (0,3), (1,3), (0,4).  CU 0 takes (0,3) at
// 500 (ends 600), then (1,3) at 600 (ends 900); CU 1 takes (0,4) at 700
// (ends 800).  The last ends at 900.  Wave-instructions: retired 90, G 30,
// left 50.
struct Case {
  std::vector<TimedGroup> retired = {{{0, 0, 0}, 0, 100, 10},   {{1, 0, 0}, 0, 300, 30},   {{0, 1, 0}, 100, 200, 10},
                                     {{1, 1, 0}, 200, 500, 30}, {{0, 2, 0}, 300, 400, 10}};
  std::vector<ResidentGroup> resident = {{{1, 2, 0}, 1, 400}};
  std::vector<WorkQueue> queues{WorkQueue{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 2, 0}, {1, 2, 0},
                                           {0, 3, 0}, {1, 3, 0}, {0, 4, 0}}, 6}};
  std::vector<int> queue_of = {0, 0};
};

}  // namespace

TEST(FastForward, ScheduledEndByHand) {
  const Case c;
  const auto s = timing::scheduled_end(c.retired, c.resident, c.queues, c.queue_of, 1, 100, 500);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->end, 900u);
  EXPECT_EQ(s->axis, 0);
  EXPECT_DOUBLE_EQ(s->instructions, 170);
  // Two slots per CU: at 500 CU 0 has two free slots and CU 1 one; (0,3) and
  // (1,3) start at 500 on CU 0 (ending 600 and 800), (0,4) on CU 1 at 500 (600).
  const auto two = timing::scheduled_end(c.retired, c.resident, c.queues, c.queue_of, 2, 100, 500);
  ASSERT_TRUE(two);
  EXPECT_EQ(two->end, 800u);
}

TEST(FastForward, ScheduledEndNeedsEveryKindTimedAndTheGridSeen) {
  Case unseen;  // a kind no retired workgroup had
  unseen.queues[0].items.back() = {2, 4, 0};
  EXPECT_FALSE(timing::scheduled_end(unseen.retired, unseen.resident, unseen.queues, unseen.queue_of, 1, 100, 500));
  Case untimed;  // x = 1 retired only in the first round: its time is unknown
  untimed.retired.erase(untimed.retired.begin() + 3);
  EXPECT_FALSE(timing::scheduled_end(untimed.retired, untimed.resident, untimed.queues, untimed.queue_of, 1, 100, 500));
  Case unlike;  // x = 0 issued 10 and 20: x does not set the work; nor y (10, 30) or z
  unlike.retired[2].instructions = 20;
  EXPECT_FALSE(timing::scheduled_end(unlike.retired, unlike.resident, unlike.queues, unlike.queue_of, 1, 100, 500));
  Case by_y;  // the work set by y instead: y = 0 and 2 are 10, y = 1 is 30
  by_y.retired = {{{0, 0, 0}, 0, 100, 10}, {{0, 1, 0}, 0, 300, 30}, {{1, 0, 0}, 100, 200, 10}, {{1, 1, 0}, 200, 500, 30}};
  by_y.resident = {};
  by_y.queues[0].items = {{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}, {2, 0, 0}};
  by_y.queues[0].next = 4;
  const auto y = timing::scheduled_end(by_y.retired, by_y.resident, by_y.queues, by_y.queue_of, 1, 50, 500);
  ASSERT_TRUE(y);  // x = 0 was 10 and 30: x fails; y = 0 took 100 (placed at 100), (2,0) ends at 600
  EXPECT_EQ(y->axis, 1);
  EXPECT_EQ(y->end, 600u);
  Case one_row;  // every retired workgroup has y = 0, the ones left another y: not seen across the grid
  one_row.retired = {{{0, 0, 0}, 0, 100, 10}, {{1, 0, 0}, 0, 300, 30}, {{0, 0, 0}, 100, 200, 10}, {{1, 0, 0}, 300, 600, 30}};
  one_row.resident = {};
  one_row.queues[0].items = {{0, 1, 0}};
  one_row.queues[0].next = 0;
  EXPECT_FALSE(timing::scheduled_end(one_row.retired, one_row.resident, one_row.queues, one_row.queue_of, 1, 50, 600));
}

// Causal attention: query block x sees x + 1 key tiles, so the grid is
// periodic in x.  On 64 CUs (8 per XCD) XCD 0 runs 128 workgroups (x = 0, 8,
// 16, 24 of every head), 16 rounds of 8: fast-forwarded after 8 rounds,
// against every workgroup of XCD 0 simulated.  Measured: 2,459,612 against
// 2,451,336 cycles (0.34% long), in 60% of the wall time.
TEST(FastForward, CausalAttentionAgainstItsFullRun) {
  const arch::Arch a = arch::load_arch("gfx950");
  std::uint64_t cycles[2] = {0, 0};
  for (const bool fast : {true, false}) {
    timing::Options o;
    o.cus = 64;
    o.sample = true;
    o.fast_forward = fast;
    o.threads = 2;
    timing::CycleModel model(a, o);
    tilelab::testing::run_suite("attention_fwd_d128", "gfx950", {32, 4096, 1}, 1, TILELAB_CODE_OBJECTS,
                                [&](emu::Emulator& e) { model.attach(e); }, [&] { return !model.result().sampled_xcds; });
    EXPECT_EQ(model.result().fast_forwarded, fast);
    EXPECT_EQ(model.result().fast_forward_axis, fast ? 0 : -1);
    cycles[fast ? 0 : 1] = model.result().cycles;
  }
  EXPECT_NEAR(static_cast<double>(cycles[0]), static_cast<double>(cycles[1]), 0.01 * static_cast<double>(cycles[1]));
}
