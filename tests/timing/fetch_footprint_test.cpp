// The estimate of the chip's HBM fetches from a simulated part of the grid
// (sim/timing/fetch_footprint): literal cases worked by hand, the properties
// its header states over generated fetch streams, and the case it exists for:
// a GEMM's grid dealt over eight XCDs, where the estimate from XCD 0 alone
// must equal the union the eight XCDs fetch.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "sim/timing/fetch_footprint.hpp"

namespace tilelab {
namespace {

using timing::FetchFootprint;
using timing::LineRange;

TEST(FetchFootprint, LiteralCases) {
  FetchFootprint f({{100, 16}, {0, 8}});
  for (std::uint64_t l = 0; l < 8; ++l) f.fetched(l);  // all of the 8-line buffer
  f.fetched(100), f.fetched(101);                      // 2 of 16 lines
  f.fetched(50);                                       // in no buffer
  EXPECT_EQ(f.fetches(), 11u);
  EXPECT_EQ(f.chip_fetches(1), 11u);
  // Scale 8: the full buffer stays 8; the other 8 * 2 = 16, its size; the
  // outside line is scaled to 8.
  EXPECT_EQ(f.chip_fetches(8), 8u + 16u + 8u);
  // Scale 16: the second buffer is capped at its 16 lines.
  EXPECT_EQ(f.chip_fetches(16), 8u + 16u + 16u);
  // Scale 4: 8 + 4 * 2 + 4.
  EXPECT_EQ(f.chip_fetches(4), 20u);
}

TEST(FetchFootprint, RefetchedLinesKeepTheirRatio) {
  FetchFootprint f({{0, 10}});
  for (int pass = 0; pass < 3; ++pass)
    for (std::uint64_t l = 0; l < 5; ++l) f.fetched(l);  // 5 lines, 3 times each
  EXPECT_EQ(f.chip_fetches(1), 15u);
  EXPECT_EQ(f.chip_fetches(2), 30u);
  EXPECT_EQ(f.chip_fetches(8), 30u);  // 10 lines, 3 fetches each
}

TEST(FetchFootprint, OverlappingBuffersAreRejected) {
  EXPECT_THROW(FetchFootprint({{0, 10}, {9, 4}}), std::invalid_argument);
  EXPECT_NO_THROW(FetchFootprint({{0, 10}, {10, 4}, {20, 0}}));
}

// Over generated buffers and fetch streams: at scale 1 the estimate is the
// count; it never exceeds the scaled count, never falls below the unscaled
// one, and grows with the scale.
TEST(FetchFootprint, PropertiesOverGeneratedStreams) {
  std::mt19937_64 rng(48);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<LineRange> buffers;
    std::uint64_t at = rng() % 64;
    const int n = 1 + static_cast<int>(rng() % 4);
    for (int b = 0; b < n; ++b) {
      const std::uint64_t lines = 1 + rng() % 200;
      buffers.push_back({at, lines});
      at += lines + rng() % 32;
    }
    FetchFootprint f(buffers);
    const int count = static_cast<int>(rng() % 500);
    for (int i = 0; i < count; ++i) f.fetched(rng() % (at + 16));
    ASSERT_EQ(f.chip_fetches(1), f.fetches());
    double last = static_cast<double>(f.fetches());
    for (double scale : {1.5, 2.0, 3.0, 8.0, 10.7, 64.0}) {
      const double est = static_cast<double>(f.chip_fetches(scale));
      ASSERT_LE(est, scale * static_cast<double>(f.fetches()) + 0.5) << trial;
      ASSERT_GE(est + 0.5, last) << trial;
      last = est;
    }
  }
}

// AMD's bf16 GEMM shape in miniature: a 16 x 16 grid of tiles, workgroup
// i = 16 by + bx on XCD i mod 8; tile (by, bx) reads A's row band `by` and
// B's column band `bx`, each band `band` lines.  The eight XCDs together
// read every line of A and B once (the MALL keeps them); XCD 0 alone reads
// all of A and 2 of B's 16 bands.
TEST(FetchFootprint, OneXcdOfAGemmGivesTheChipsUnion) {
  const std::uint64_t tiles = 16, band = 32, xcds = 8;
  const std::uint64_t a0 = 0, b0 = tiles * band + 100;
  FetchFootprint f({{a0, tiles * band}, {b0, tiles * band}});
  std::set<std::uint64_t> seen;  // XCD 0's MALL: a line is fetched once
  for (std::uint64_t i = 0; i < tiles * tiles; i += xcds) {
    const std::uint64_t by = i / tiles, bx = i % tiles;
    for (std::uint64_t l = 0; l < band; ++l)
      for (std::uint64_t line : {a0 + by * band + l, b0 + bx * band + l})
        if (seen.insert(line).second) f.fetched(line);
  }
  EXPECT_EQ(f.fetches(), tiles * band + 2 * band);
  EXPECT_EQ(f.chip_fetches(static_cast<double>(xcds)), 2 * tiles * band);  // what the eight fetch
}

}  // namespace
}  // namespace tilelab
