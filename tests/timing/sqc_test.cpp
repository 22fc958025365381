// The SQC's caches (sim/timing/sqc): hits, misses, fills in flight, the
// sequential prefetch and deferred (pending) fills, against a port that
// answers every request 100 clocks later; and in the cycle model, a cold
// kernel's first instruction waiting for its line.  Expected values by hand.
#include <gtest/gtest.h>

#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/timing/sqc.hpp"

namespace tilelab {
namespace {

using timing::SqcCache;

struct Request {
  std::uint64_t cycle, line;
  int bytes;
};

// Answers 100 clocks after each request and keeps what it was asked.
class RecordingPort final : public timing::MemoryBeyondL1 {
 public:
  std::uint64_t request(std::uint64_t cycle, std::uint64_t line, int bytes, bool) override {
    asked.push_back({cycle, line, bytes});
    return cycle + 100;
  }
  std::uint64_t bytes_moved() const override { return 0; }
  double busy_cycles() const override { return 0; }
  std::vector<Request> asked;
};

// 16 KiB, 4 ways, 64 B lines in 128 B chip lines.
TEST(SqcCache, AMissFillsThroughThePortAndThenHits) {
  SqcCache c(16384, 4, 64, 128);
  RecordingPort port;
  EXPECT_EQ(c.fetch(0x1000, 10, port), 110u);          // cold: the port's answer
  ASSERT_EQ(port.asked.size(), 1u);
  EXPECT_EQ(port.asked[0].line, 0x1000u / 128);       // the chip line holding it
  EXPECT_EQ(port.asked[0].bytes, 64);
  EXPECT_EQ(c.fetch(0x1020, 50, port), 110u);          // the same line, its fill on its way
  EXPECT_EQ(c.fetch(0x103f, 200, port), 200u);         // there: a hit at once
  EXPECT_EQ(c.fetch(0x1040, 200, port), 300u);         // the next 64 B line: its own miss
  EXPECT_EQ(port.asked.size(), 2u);
  EXPECT_EQ(port.asked[1].line, 0x1040u / 128);        // the same chip line (the L2 merges them)
  EXPECT_EQ(c.hits(), 2u);
  EXPECT_EQ(c.misses(), 2u);
}

// Every fetch also asks for the absent lines of the next `prefetch`, at its
// cycle (tagged prefetch): the pc's line and 4 ahead are always on their way.
TEST(SqcCache, EveryFetchKeepsTheNextLinesComing) {
  SqcCache c(65536, 8, 64, 128);
  RecordingPort port;
  EXPECT_EQ(c.fetch(0, 0, port, 4), 100u);
  ASSERT_EQ(port.asked.size(), 5u);  // lines 0-4, chip lines 0, 0, 1, 1, 2
  for (std::size_t k = 0; k < 5; ++k) EXPECT_EQ(port.asked[k].line, k * 64 / 128) << k;
  EXPECT_EQ(c.fetch(4 * 64, 30, port, 4), 100u);  // prefetched: waits for its fill; asks for lines 5-8
  ASSERT_EQ(port.asked.size(), 9u);
  EXPECT_EQ(port.asked[8].cycle, 30u);
  EXPECT_EQ(c.fetch(5 * 64, 300, port, 4), 300u);  // its fill came at 130: a hit at once; asks for line 9
  EXPECT_EQ(port.asked.size(), 10u);
  EXPECT_EQ(c.fetch(2 * 64, 310, port, 4), 310u);  // back to an early line: lines 3-6 are there, nothing asked
  EXPECT_EQ(port.asked.size(), 10u);
  EXPECT_EQ(c.misses(), 1u);
  EXPECT_EQ(c.hits(), 3u);
}

// An evicted line misses again: 4 ways of a 1 KiB cache hold 16 lines, so
// after 64 other lines the first is gone (LRU).
TEST(SqcCache, ALineEvictedMissesAgain) {
  SqcCache c(1024, 4, 64, 128);
  RecordingPort port;
  c.fetch(0, 0, port);
  for (std::uint64_t l = 1; l <= 64; ++l) c.fetch(l * 64, 1000 + l, port);
  EXPECT_EQ(c.fetch(0, 5000, port), 5100u);
  EXPECT_EQ(c.misses(), 66u);
}

// Beside other CUs the port defers: the fill is a pending cycle until the
// quantum's end; settle() turns it into the chip's answer.
TEST(SqcCache, APendingFillSettles) {
  SqcCache c(16384, 4, 64, 128);
  RecordingPort chip;
  timing::PendingTimes pending;
  timing::DeferringPort port(chip, pending);
  port.set_deferring(true);
  const std::uint64_t t = c.fetch(0x2000, 40, port);
  EXPECT_TRUE(timing::PendingTimes::pending(t));
  EXPECT_TRUE(timing::PendingTimes::pending(c.fetch(0x2000, 50, port)));  // a hit on the same pending fill
  pending.flush(chip);
  EXPECT_EQ(pending.value(t), 140u);
  c.settle(pending);
  pending.clear();
  port.set_deferring(false);
  EXPECT_EQ(c.fetch(0x2000, 60, port), 140u);  // the settled fill, still on its way at 60
  EXPECT_EQ(chip.asked.size(), 1u);
}

}  // namespace
}  // namespace tilelab
