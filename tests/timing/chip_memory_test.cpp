// The chip below the L1s (sim/timing/chip_memory): bandwidth calendars, the
// caches' hit/miss/eviction sequences, write-back traffic, the levels'
// latencies against the published figures they stand on.  Every expected
// value is worked out by hand from the figures named in the comment.
#include <gtest/gtest.h>

#include "sim/arch/arch.hpp"
#include "sim/timing/chip_memory.hpp"
#include "sim/timing/pending_times.hpp"

namespace tilelab {
namespace {

using timing::BandwidthCalendar;
using timing::ChipMemory;
using timing::LineCache;

TEST(BandwidthCalendar, OneRequesterMovesAtTheRate) {
  BandwidthCalendar c(64, 16);  // 64 B/clk, 1024 B per 16-clock bucket
  EXPECT_EQ(c.reserve(0, 128), 2u);   // 128 / 64
  EXPECT_EQ(c.reserve(0, 128), 4u);   // behind the first: 256 B moved by clock 4
  EXPECT_EQ(c.reserve(10, 128), 12u); // never before its own cycle + 128 / 64
  EXPECT_EQ(c.reserve(100, 64), 101u);
}

// N requesters asking at once share the rate: the last of 8 x 1 KiB at 64 B/clk is done at 128.
TEST(BandwidthCalendar, RequestersShareTheRate) {
  BandwidthCalendar c(64, 16);
  std::uint64_t last = 0;
  for (int i = 0; i < 8; ++i) last = std::max(last, c.reserve(0, 1024));
  EXPECT_EQ(last, 128u);
  EXPECT_DOUBLE_EQ(c.bytes_moved(), 8192);
  // Within one bucket the order does not matter: the pair is done at the same
  // clock whether cycle 5's request or cycle 0's came first.
  BandwidthCalendar a(64, 16), b(64, 16);
  const auto ta = std::max(a.reserve(5, 256), a.reserve(0, 512));
  const auto tb = std::max(b.reserve(0, 512), b.reserve(5, 256));
  EXPECT_EQ(ta, tb);
  EXPECT_EQ(ta, 12u);  // 768 B at 64 B/clk
}

// 2 sets x 2 ways of 128 B lines (lines < 128 fall in set line % 2), LRU.
TEST(LineCache, HitMissEvictionAndDirtyVictims) {
  LineCache c(512, 128, 2);
  EXPECT_FALSE(c.access(0, false).hit);
  EXPECT_FALSE(c.access(2, true).hit);  // set 0 now holds 0 and 2 (dirty)
  EXPECT_TRUE(c.access(0, false).hit);  // 2 is now the least recently used
  const LineCache::Outcome o = c.access(4, false);
  EXPECT_FALSE(o.hit);
  EXPECT_TRUE(o.evicted_dirty);
  EXPECT_EQ(o.victim, 2u);
  EXPECT_TRUE(c.holds(0));
  EXPECT_FALSE(c.holds(2));
  EXPECT_FALSE(c.access(1, false).hit);  // set 1 is untouched by set 0's traffic
  EXPECT_TRUE(c.holds(0));
  const LineCache::Outcome clean = c.access(6, false);  // evicts 0 (clean): no write-back
  EXPECT_FALSE(clean.evicted_dirty);
  c.invalidate(4);
  EXPECT_FALSE(c.holds(4));
}

// gfx950's [memory] figures: an HBM fill, then an L2 hit, then another XCD's
// L2 miss served by the MALL.  Load-to-use adds the L1's own latency (120).
// The counters over time (CounterWindows): windows of 1024 cycles; past the
// most windows kept, the width doubles and neighbours merge.
TEST(ChipMemory, CounterWindowsWidenAndMerge) {
  timing::CounterWindows w(2, 4);
  w.at(0, 0).l2_requests += 1;
  w.at(0, 1023).l2_requests += 2;
  w.at(0, 1024).l2_requests += 4;
  w.at(1, 3000).hbm_bytes += 128;
  EXPECT_EQ(w.width(), 1024u);
  ASSERT_EQ(w.per_xcd()[0].size(), 2u);
  EXPECT_EQ(w.per_xcd()[0][0].l2_requests, 3u);
  EXPECT_EQ(w.per_xcd()[0][1].l2_requests, 4u);
  ASSERT_EQ(w.per_xcd()[1].size(), 3u);
  // Cycle 5000 is window 4 of 1024: past the 4 kept, so the width becomes 2048
  // (5000 / 2048 = window 2) and windows 0+1, 2+3 merge.
  w.at(0, 5000).l2_hits += 1;
  EXPECT_EQ(w.width(), 2048u);
  ASSERT_EQ(w.per_xcd()[0].size(), 3u);
  EXPECT_EQ(w.per_xcd()[0][0].l2_requests, 7u);
  EXPECT_EQ(w.per_xcd()[0][2].l2_hits, 1u);
  ASSERT_EQ(w.per_xcd()[1].size(), 2u);
  EXPECT_EQ(w.per_xcd()[1][1].hbm_bytes, 128u);  // cycle 3000 is in window 1 of 2048
  // A whole run: every L2 request and HBM byte of the XCD's totals is in its windows.
  const arch::Arch a = arch::load_arch("gfx950");
  timing::ChipMemory chip(a, 2);
  for (std::uint64_t i = 0; i < 3000; ++i) chip.request(static_cast<int>(i % 2), 7 * i, (i * 37) % 900, 128, i % 5 == 0);
  chip.write_back_at_end(30000);
  for (int x = 0; x < 2; ++x) {
    std::uint64_t requests = 0, hits = 0, hbm = 0;
    for (const timing::CounterWindow& c : chip.windows().per_xcd()[static_cast<std::size_t>(x)])
      requests += c.l2_requests, hits += c.l2_hits, hbm += c.hbm_bytes;
    const timing::ChipCounters& t = chip.per_xcd()[static_cast<std::size_t>(x)];
    EXPECT_EQ(requests, t.l2_requests);
    EXPECT_EQ(hits, t.l2_hits);
    EXPECT_EQ(hbm, t.hbm_bytes);
    EXPECT_GT(hbm, 0u);
  }
}

TEST(ChipMemory, LatenciesOfEachLevel) {
  const arch::Arch a = arch::load_arch("gfx950");
  const arch::MemorySystem& m = a.memory;
  const int l1 = a.timing.l1_latency;
  ChipMemory chip(a, 8);
  // Miss everywhere at cycle 0: link 128 B at 1024 B/clk (1), MALL channel at
  // 64 B/clk (2), the line's HBM channel at 8 TB/s at 1590 MHz = 5031.4 B/clk,
  // less refresh (1 - 350/3900) = 4579.9, over 128 channels = 35.78 B/clk
  // (128 B: 3.58, so 4): data at 4 + hbm_latency - l1.
  EXPECT_NEAR(arch::hbm_sustained_bytes_per_clock(a) / 128, 35.78, 0.01);
  EXPECT_EQ(chip.request(0, 0, 1000, 128, false), static_cast<std::uint64_t>(4 + m.hbm_latency - l1));
  // The same line from the same XCD: an L2 hit, 128 B at 128 B/clk on its channel.
  EXPECT_EQ(chip.request(0, 5000, 1000, 128, false) + l1, static_cast<std::uint64_t>(5000 + 1 + m.l2_latency));
  // From XCD 3: its own L2 misses (L2s are private), the MALL holds the line.
  const std::uint64_t mall = chip.request(3, 9000, 1000, 128, false) + static_cast<std::uint64_t>(l1) - 9000;
  EXPECT_EQ(mall, static_cast<std::uint64_t>(2 + m.mall_latency));
  // The figure it stands on: ~218 ns measured on MI300X (CCX) by a pointer
  // chase, a light load that runs at the peak clock: within 1% there.
  EXPECT_NEAR(static_cast<double>(mall) / arch::peak_clock_mhz(a) * 1000, 218, 218 * 0.01);
  const timing::ChipCounters& c = chip.counters();
  EXPECT_EQ(c.l2_requests, 3u);
  EXPECT_EQ(c.l2_hits, 1u);
  EXPECT_EQ(c.l2_misses, 2u);
  EXPECT_EQ(c.ea_read_requests, 2u);
  EXPECT_EQ(c.mall_hits, 1u);
  EXPECT_EQ(c.mall_misses, 1u);
  EXPECT_EQ(c.hbm_bytes, 128u);
  EXPECT_EQ(chip.per_xcd()[3].l2_misses, 1u);
}

// A request for a line whose fill is still on its way waits for that fill
// (merged into the miss) instead of being served at the hit latency; the
// L2 and the MALL both.  Line 1000 from XCD 0 at cycle 0 misses everywhere:
// its data is at the L1 at 4 + hbm_latency - l1 (LatenciesOfEachLevel).
TEST(ChipMemory, AHitOnALineInFlightWaitsForItsFill) {
  const arch::Arch a = arch::load_arch("gfx950");
  const arch::MemorySystem& m = a.memory;
  const int l1 = a.timing.l1_latency;
  const std::uint64_t fill = static_cast<std::uint64_t>(4 + m.hbm_latency - l1);
  ChipMemory chip(a, 8);
  EXPECT_EQ(chip.request(0, 0, 1000, 128, false), fill);
  // XCD 0 again at cycle 10: an L2 hit (counted as one), served at
  // 10 + 1 + l2_latency - l1 = 291 but the data is not there before `fill`.
  EXPECT_EQ(chip.request(0, 10, 1000, 128, false), fill);
  // XCD 3 at cycle 20: its L2 misses, the MALL has the line's tag but not yet
  // its data: 20 + 2 + mall_latency - l1 = 425 < fill, so it too waits for the fill.
  EXPECT_EQ(chip.request(3, 20, 1000, 128, false), fill);
  // Long after the fill, hits are served at their own latency again.
  EXPECT_EQ(chip.request(0, 5000, 1000, 128, false) + l1, static_cast<std::uint64_t>(5000 + 1 + m.l2_latency));
  const timing::ChipCounters& c = chip.counters();
  EXPECT_EQ(c.l2_hits, 2u);
  EXPECT_EQ(c.mall_hits, 1u);
  EXPECT_EQ(c.hbm_bytes, 128u);
}

// Requests arrive up to a quantum out of time order: one made 40 clocks
// before the miss it finds in flight waits as long after its own cycle as the
// miss does (it would have been the miss in time order).
TEST(ChipMemory, AnEarlierRequestFindingAFillWaitsAsLongAsIt) {
  const arch::Arch a = arch::load_arch("gfx950");
  const std::uint64_t fill = static_cast<std::uint64_t>(4 + a.memory.hbm_latency - a.timing.l1_latency);
  ChipMemory chip(a, 1);
  EXPECT_EQ(chip.request(0, 100, 1000, 128, false), 100 + fill);
  EXPECT_EQ(chip.request(0, 60, 1000, 128, false), 60 + fill);
  // The rule by itself: served at 300, fill asked at 100 and there at 900.
  LineCache::Outcome o;
  o.hit = true, o.fill_asked = 100, o.fill_ready = 900;
  EXPECT_EQ(timing::merged_with_fill(o, 150, 300), 900u);  // asked after the fill: waits for it
  EXPECT_EQ(timing::merged_with_fill(o, 40, 300), 840u);   // asked 60 before: 60 less
  EXPECT_EQ(timing::merged_with_fill(o, 150, 950), 950u);  // served after the fill anyway
  o.fill_asked = o.fill_ready = 0;                         // a line that never waited (a store's)
  EXPECT_EQ(timing::merged_with_fill(o, 150, 300), 300u);
}

// Stores allocate dirty lines without a fill; only their eviction writes to
// HBM.  4 MB / 128 B = 32768 lines fit; writing 2x that evicts the first half.
TEST(ChipMemory, WriteBackTrafficIsTheEvictedDirtyLines) {
  const arch::Arch a = arch::load_arch("gfx950");
  ChipMemory chip(a, 1);
  const std::uint64_t lines = static_cast<std::uint64_t>(a.memory.l2_bytes / 128);
  for (std::uint64_t l = 0; l < lines; ++l) chip.request(0, l, l, 128, true);
  EXPECT_EQ(chip.counters().ea_write_requests, 0u);
  EXPECT_EQ(chip.counters().ea_read_requests, 0u);  // no fill for a write
  EXPECT_EQ(chip.counters().hbm_bytes, 0u);
  for (std::uint64_t l = lines; l < 2 * lines; ++l) chip.request(0, l, l, 128, true);
  // The set hash spreads lines unevenly, so a set may overflow a little
  // early: at least 90% of the first half has been written back, and no more
  // lines than were written before the second half began.
  const std::uint64_t wb = chip.counters().l2_writebacks;
  EXPECT_GE(wb, lines * 9 / 10);
  EXPECT_LE(wb, lines);
  EXPECT_EQ(chip.counters().hbm_bytes, wb * 128);
}

}  // namespace
// The kernel's end: the dirty lines (and only those) go to HBM.  Two stores
// and a load on one XCD: 2 lines written back, each 128 B through the
// 1024 B/clk link and its own HBM channel (lines 0 and 64 are 8 KiB apart: two
// stacks at the 4 KiB interleave) at 35.78 B/clk, so both are done within 4
// clocks of the start (LatenciesOfEachLevel); nothing is dirty afterwards.  Scaled by 3 (a fast-forwarded run),
// 6 lines go.
TEST(ChipMemory, KernelEndWritesBackTheDirtyLines) {
  const arch::Arch a = arch::load_arch("gfx950");
  {
    ChipMemory chip(a, 1);
    chip.request(0, 0, 0, 128, true);
    chip.request(0, 0, 64, 128, true);
    chip.request(0, 0, 200, 128, false);
    const timing::ChipCounters before = chip.counters();
    const auto [done, lines] = chip.write_back_at_end(10000);
    EXPECT_EQ(lines, 2u);
    EXPECT_EQ(chip.counters().l2_writebacks - before.l2_writebacks, 2u);
    EXPECT_EQ(chip.counters().hbm_bytes - before.hbm_bytes, 256u);
    EXPECT_EQ(done, 10004u);
    EXPECT_EQ(chip.write_back_at_end(20000).second, 0u);  // clean now
  }
  {
    ChipMemory chip(a, 1);
    chip.request(0, 0, 0, 128, true);
    chip.request(0, 0, 64, 128, true);
    EXPECT_EQ(chip.write_back_at_end(10000, 3.0).second, 6u);
  }
}

}  // namespace tilelab

namespace tilelab {
namespace {

// sim/timing/pending_times: cycles the chip has not given yet (pending cycles),
// worked out by hand.  The memory answers a request at cycle + 300 (+ 1000
// for a store), and records the order it was asked in.
struct Recorder final : timing::MemoryBeyondL1 {
  std::vector<std::uint64_t> lines;
  std::uint64_t request(std::uint64_t cycle, std::uint64_t line, int, bool store) override {
    lines.push_back(line);
    return cycle + (store ? 1000 : 300);
  }
  std::uint64_t bytes_moved() const override { return 0; }
  double busy_cycles() const override { return 0; }
};

TEST(PendingTimes, PendingCyclesBecomeKnownInRequestOrder) {
  using timing::PendingTimes;
  PendingTimes p;
  const std::uint64_t a = p.defer(10, 7, 128, false), b = p.defer(20, 3, 64, true);
  EXPECT_TRUE(PendingTimes::pending(a) && PendingTimes::pending(b));
  EXPECT_GT(a, std::uint64_t{1} << 62);  // later than any real cycle
  // max(50, a, b) + 120, then max(that, 5000): a node over a node.
  const std::uint64_t n = p.max_plus(50, {a, 7, b}, 120);
  const std::uint64_t m = p.max_plus(5000, {n}, 0);
  EXPECT_EQ(p.max_plus(40, {7, 90}, 5), 95u);  // no pending cycle among the terms: a plain cycle
  timing::CycleMax plain(&p);
  plain.add(3), plain.add(8);
  EXPECT_EQ(plain.finish(2), 10u);
  Recorder r;
  p.flush(r);
  EXPECT_EQ(r.lines, (std::vector<std::uint64_t>{7, 3}));
  EXPECT_EQ(p.value(a), 310u);
  EXPECT_EQ(p.value(b), 1020u);
  EXPECT_EQ(p.value(n), 1140u);  // max(50, 310, 7, 1020) + 120
  EXPECT_EQ(p.value(m), 5000u);
  EXPECT_EQ(p.value(77), 77u);
  p.clear();
  EXPECT_TRUE(p.empty());
}

}  // namespace
}  // namespace tilelab
