// The address map (sim/timing/address_map): the XOR fold's literal values
// and the properties the chip model relies on (a power-of-two stride spread
// over every unit), over thousands of generated inputs with fixed seeds, and
// the gfx950 map's literal placements worked out by hand.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/timing/address_map.hpp"

namespace tilelab {
namespace {

using timing::AddressMap;
using timing::unit_bits;
using timing::xor_fold;

TEST(XorFold, LiteralValues) {
  EXPECT_EQ(xor_fold(0xB6, 4), 0xDu);               // 1011 ^ 0110
  EXPECT_EQ(xor_fold(0x12345678, 8), 0x08u);        // 12 ^ 34 ^ 56 ^ 78
  EXPECT_EQ(xor_fold(0x7, 3), 0x7u);                // one field: itself
  EXPECT_EQ(xor_fold(0x38, 3), 0x7u);               // 111 000
  EXPECT_EQ(xor_fold(0xFFFFFFFFFFFFFFFFull, 4), 0u); // 16 equal fields cancel
  EXPECT_EQ(xor_fold(12345, 0), 0u);
  EXPECT_EQ(xor_fold(12345, 64), 12345u);
}

TEST(XorFold, UnitBits) {
  EXPECT_EQ(unit_bits(0), 0);
  EXPECT_EQ(unit_bits(1), 0);
  EXPECT_EQ(unit_bits(2), 1);
  EXPECT_EQ(unit_bits(3), 2);
  EXPECT_EQ(unit_bits(8), 3);
  EXPECT_EQ(unit_bits(16), 4);
  EXPECT_EQ(unit_bits(128), 7);
}

// Flipping any bits of one field flips the same bits of the fold.
TEST(XorFold, AFieldMapsOneToOne) {
  std::mt19937_64 rng(48);
  for (int n = 0; n < 5000; ++n) {
    const int bits = 1 + static_cast<int>(rng() % 12);
    const std::uint64_t v = rng(), d = rng() & ((1ull << bits) - 1);
    const int field = static_cast<int>(rng() % static_cast<std::uint64_t>(64 / bits));
    ASSERT_EQ(xor_fold(v ^ (d << (bits * field)), bits), xor_fold(v, bits) ^ d) << v << " " << bits;
  }
}

// base + i * 2^k for i < 2^bits, base a multiple of 2^(k+bits): every unit once.
TEST(XorFold, AnAlignedPowerOfTwoStrideVisitsEveryUnitOnce) {
  std::mt19937_64 rng(4801);
  for (int n = 0; n < 6000; ++n) {
    const int bits = 1 + static_cast<int>(rng() % 8), k = static_cast<int>(rng() % 40);
    const std::uint64_t base = (rng() >> (k + bits)) << (k + bits);
    std::set<std::uint64_t> units;
    for (std::uint64_t i = 0; i < (1ull << bits); ++i) units.insert(xor_fold(base + (i << k), bits));
    ASSERT_EQ(units.size(), 1ull << bits) << "bits " << bits << " stride 2^" << k;
  }
}

// From any base the run of block numbers crosses at most one alignment
// boundary, so no unit gets more than two of 2^bits strides.
TEST(XorFold, AnyPowerOfTwoStrideVisitsNoUnitMoreThanTwice) {
  std::mt19937_64 rng(4802);
  for (int n = 0; n < 4000; ++n) {
    const int bits = 1 + static_cast<int>(rng() % 8), k = static_cast<int>(rng() % 40);
    const std::uint64_t base = rng() >> 2;
    std::map<std::uint64_t, int> count;
    for (std::uint64_t i = 0; i < (1ull << bits); ++i) ++count[xor_fold(base + (i << k), bits)];
    for (const auto& [unit, c] : count) ASSERT_LE(c, 2) << "unit " << unit << " base " << base;
  }
}

class Gfx950Map : public ::testing::Test {
 protected:
  arch::Arch a = arch::load_arch("gfx950");
  AddressMap map{a.memory, a.timing.l1_line_bytes};
  std::uint64_t line_at(std::uint64_t address) const { return address / static_cast<std::uint64_t>(a.timing.l1_line_bytes); }
};

// 128 B lines, 4 KiB stack blocks, 256 B channel blocks, 8 stacks x 16 channels.
TEST_F(Gfx950Map, LiteralPlacements) {
  ASSERT_EQ(a.timing.l1_line_bytes, 128);
  ASSERT_EQ(map.hbm_channels(), 128);
  EXPECT_EQ(map.hbm_stack(line_at(0)), 0);
  EXPECT_EQ(map.hbm_channel(line_at(0)), 0);
  EXPECT_EQ(map.hbm_channel(line_at(128)), 0);         // the same 256 B channel block
  EXPECT_EQ(map.hbm_channel(line_at(256)), 1);         // block 1 of stack 0
  EXPECT_EQ(map.hbm_stack(line_at(4096)), 1);          // 4 KiB block 1
  EXPECT_EQ(map.hbm_channel(line_at(4096)), 16 + 1);   // 4096/256 = 0x10 folds to 1
  EXPECT_EQ(map.hbm_stack(line_at(8 * 4096)), 1);      // block 8 = 001 000: 1 (a plain modulo: 0)
  EXPECT_EQ(map.hbm_stack(line_at(7 * 4096)), 7);
  EXPECT_EQ(map.mall_channel(line_at(4096)), map.hbm_channel(line_at(4096)));  // 16 MALL channels per stack
  EXPECT_EQ(map.l2_channel(5), 5);
  EXPECT_EQ(map.l2_channel(16 + 5), 4);                // 0x15 folds to 1 ^ 5
}

// A 4 KiB block: one stack, its 16 channel blocks on the stack's 16 channels.
TEST_F(Gfx950Map, AStackBlockSpreadsOverItsStacksChannels) {
  std::mt19937_64 rng(4803);
  for (int n = 0; n < 2000; ++n) {
    const std::uint64_t block = (rng() >> 20) * 4096;
    const int stack = map.hbm_stack(line_at(block));
    std::set<int> channels;
    for (std::uint64_t off = 0; off < 4096; off += 128) {
      ASSERT_EQ(map.hbm_stack(line_at(block + off)), stack);
      const int ch = map.hbm_channel(line_at(block + off));
      ASSERT_EQ(ch / 16, stack);
      channels.insert(ch);
      const int mall = map.mall_channel(line_at(block + off));
      ASSERT_GE(mall, 0);
      ASSERT_LT(mall, a.memory.mall_channels);
      ASSERT_EQ(mall / (a.memory.mall_channels / a.memory.hbm_stacks), stack);
    }
    ASSERT_EQ(channels.size(), 16u);
  }
}

// The rows of a matrix at every power-of-two pitch from 128 B to 1 MiB (a
// GEMM's K or N stride): over 4096 rows no stack, HBM channel, MALL channel
// or L2 channel carries more than twice its even share.  A plain modulo put
// every pitch from 32 KiB up on one stack.
TEST_F(Gfx950Map, PowerOfTwoPitchesSpreadOverEveryUnit) {
  for (std::uint64_t pitch = 128; pitch <= (1u << 20); pitch *= 2) {
    std::vector<int> stack(8), hbm(128), mall(static_cast<std::size_t>(a.memory.mall_channels)), l2(16);
    const int rows = 4096;
    for (int r = 0; r < rows; ++r) {
      const std::uint64_t line = line_at(0x40000000ull + static_cast<std::uint64_t>(r) * pitch);
      ++stack[static_cast<std::size_t>(map.hbm_stack(line))];
      ++hbm[static_cast<std::size_t>(map.hbm_channel(line))];
      ++mall[static_cast<std::size_t>(map.mall_channel(line))];
      ++l2[static_cast<std::size_t>(map.l2_channel(line))];
    }
    auto at_most_twice_even = [&](const std::vector<int>& units, const char* what) {
      for (int c : units) EXPECT_LE(c, 2 * rows / static_cast<int>(units.size())) << what << " pitch " << pitch;
    };
    at_most_twice_even(stack, "stack");
    at_most_twice_even(hbm, "HBM channel");
    at_most_twice_even(mall, "MALL channel");
    at_most_twice_even(l2, "L2 channel");
  }
}

}  // namespace
}  // namespace tilelab
