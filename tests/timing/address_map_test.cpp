// The address map (sim/timing/address_map): the GF(2) residue's literal values
// and the properties the chip model relies on (a power-of-two stride spread
// over every unit), over thousands of generated inputs with fixed seeds, and
// the gfx950 map's literal placements worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "sim/arch/arch.hpp"
#include "sim/timing/address_map.hpp"

namespace tilelab {
namespace {

using timing::AddressMap;
using timing::gf2_residue;
using timing::unit_bits;

// Worked by hand: x^3 mod (x^3 + x + 1) = x + 1, and so on.
TEST(Gf2Residue, LiteralValues) {
  EXPECT_EQ(gf2_residue(0b1011, 3), 0u);       // the polynomial itself
  EXPECT_EQ(gf2_residue(0b1000, 3), 0b011u);   // x^3 = x + 1
  EXPECT_EQ(gf2_residue(0b10000, 3), 0b110u);  // x^4 = x^2 + x
  EXPECT_EQ(gf2_residue(0b101, 3), 0b101u);    // below the degree: itself
  EXPECT_EQ(gf2_residue(16, 4), 3u);           // x^4 mod (x^4 + x + 1) = x + 1
  EXPECT_EQ(gf2_residue(21, 4), 6u);           // x^4 + x^2 + 1 = x^2 + x
  EXPECT_EQ(gf2_residue(0x100, 8), 0x1bu);     // AES's reduction of x^8
  EXPECT_EQ(gf2_residue(0xB6, 4), 8u);
  EXPECT_EQ(gf2_residue(12345, 0), 0u);
}

TEST(Gf2Residue, UnitBits) {
  EXPECT_EQ(unit_bits(0), 0);
  EXPECT_EQ(unit_bits(1), 0);
  EXPECT_EQ(unit_bits(2), 1);
  EXPECT_EQ(unit_bits(3), 2);
  EXPECT_EQ(unit_bits(8), 3);
  EXPECT_EQ(unit_bits(16), 4);
  EXPECT_EQ(unit_bits(128), 7);
}

// Linear over XOR: the residue of a ^ b is the residues' XOR.
TEST(Gf2Residue, IsLinear) {
  std::mt19937_64 rng(48);
  for (int n = 0; n < 5000; ++n) {
    const int bits = 1 + static_cast<int>(rng() % 16);
    const std::uint64_t a = rng(), b = rng();
    ASSERT_EQ(gf2_residue(a ^ b, bits), gf2_residue(a, bits) ^ gf2_residue(b, bits));
    ASSERT_LT(gf2_residue(a, bits), 1ull << bits);
  }
}

// Every bits-wide window of the value, at any position, the rest fixed,
// maps one to one onto the units.
TEST(Gf2Residue, AnyWindowMapsOneToOne) {
  std::mt19937_64 rng(4800);
  for (int n = 0; n < 1500; ++n) {
    const int bits = 1 + static_cast<int>(rng() % 7), at = static_cast<int>(rng() % static_cast<std::uint64_t>(64 - bits));
    const std::uint64_t v = rng() & ~(((1ull << bits) - 1) << at);
    std::set<std::uint64_t> units;
    for (std::uint64_t d = 0; d < (1ull << bits); ++d) units.insert(gf2_residue(v | (d << at), bits));
    ASSERT_EQ(units.size(), 1ull << bits) << "bits " << bits << " at " << at;
  }
}

// base + i * 2^k for i < 2^bits, base a multiple of 2^(k+bits): every unit once.
TEST(Gf2Residue, AnAlignedPowerOfTwoStrideVisitsEveryUnitOnce) {
  std::mt19937_64 rng(4801);
  for (int n = 0; n < 6000; ++n) {
    const int bits = 1 + static_cast<int>(rng() % 8), k = static_cast<int>(rng() % 40);
    const std::uint64_t base = (rng() >> (k + bits)) << (k + bits);
    std::set<std::uint64_t> units;
    for (std::uint64_t i = 0; i < (1ull << bits); ++i) units.insert(gf2_residue(base + (i << k), bits));
    ASSERT_EQ(units.size(), 1ull << bits) << "bits " << bits << " stride 2^" << k;
  }
}

// From any base the run of block numbers crosses at most one alignment
// boundary, so no unit gets more than two of 2^bits strides.
TEST(Gf2Residue, AnyPowerOfTwoStrideVisitsNoUnitMoreThanTwice) {
  std::mt19937_64 rng(4802);
  for (int n = 0; n < 4000; ++n) {
    const int bits = 1 + static_cast<int>(rng() % 8), k = static_cast<int>(rng() % 40);
    const std::uint64_t base = rng() >> 2;
    std::map<std::uint64_t, int> count;
    for (std::uint64_t i = 0; i < (1ull << bits); ++i) ++count[gf2_residue(base + (i << k), bits)];
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
  EXPECT_EQ(map.hbm_channel(line_at(4096)), 16 + 3);   // 4096/256 = x^4 = x + 1 modulo x^4 + x + 1
  EXPECT_EQ(map.hbm_stack(line_at(8 * 4096)), 3);      // block 8 = x^3 = x + 1 (a plain modulo: 0)
  EXPECT_EQ(map.hbm_stack(line_at(7 * 4096)), 7);
  EXPECT_EQ(map.mall_channel(line_at(4096)), map.hbm_channel(line_at(4096)));  // 16 MALL channels per stack
  EXPECT_EQ(map.l2_channel(5), 5);
  EXPECT_EQ(map.l2_channel(16 + 5), 6);                // x^4 + x^2 + 1 = x^2 + x
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

// Strides near a power of two: 104 streams of AMD's MXFP4 32x128 tiles
// (128 x K/2 bytes apart, K = 16128, 16384, 16640), each with 8 KiB in
// flight, at 16 points along the stream: the busiest HBM channel carries at
// most 1.25x the mean (a plain XOR fold of the block's fields: 2.7x).
TEST_F(Gfx950Map, NearPowerOfTwoStridesSpreadToo) {
  for (std::uint64_t k : {16128u, 16384u, 16640u}) {
    const std::uint64_t tile = 128 * k / 2;
    for (std::uint64_t at = 0; at < 65536; at += 4096) {
      std::vector<int> load(128);
      for (std::uint64_t j = 0; j < 104; ++j)
        for (std::uint64_t off = at; off < at + 8192; off += 128) ++load[static_cast<std::size_t>(map.hbm_channel(line_at(0x10000000 + j * tile + off)))];
      const int most = *std::max_element(load.begin(), load.end());
      EXPECT_LE(most, 104 * 64 * 5 / 4 / 128) << "K " << k << " at " << at;
    }
  }
}

}  // namespace
}  // namespace tilelab
