// A wave's vector register file (sim/emu/wave): zero when made, whether its
// pages are fresh or a finished wave's (the process's spares); copies are deep.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "sim/emu/wave.hpp"

namespace tilelab {
namespace {

bool all_zero(const emu::VectorFile& f) {
  for (int r = 0; r < emu::kVectorRegisters; ++r)
    for (int l = 0; l < emu::kLanes; ++l)
      if (f.reg(r)[l]) return false;
  return true;
}

// Rounds of more files than the process keeps for reuse, each written at
// random registers (a few of its pages), dropped, then made again: every new
// file is zero, whether fresh or a spare whose written pages were cleared.
TEST(VectorFile, ZeroWhenMadeFreshOrReused) {
  std::mt19937 rng(7);
  for (int round = 0; round < 3; ++round) {
    std::vector<emu::VectorFile> files(emu::VectorFile::kSpares + 100);
    for (emu::VectorFile& f : files) {
      ASSERT_TRUE(all_zero(f)) << "round " << round;
      for (int n = 0; n < 8; ++n) f.reg(static_cast<int>(rng() % 512))[rng() % 64] = rng() | 1;
    }
  }
  {
    emu::Wave w;  // a wave that ends: its file goes to the spares
    w.agpr(255)[63] = 5;
    w.vgpr(0)[0] = 1;
  }
  emu::Wave next;  // takes that file
  EXPECT_TRUE(all_zero(next.v));
}

TEST(VectorFile, CopiesAreDeep) {
  emu::VectorFile a;
  a.reg(3)[7] = 42;
  a.reg(511)[63] = 9;
  emu::VectorFile b = a;
  EXPECT_EQ(b.reg(3)[7], 42u);
  EXPECT_EQ(b.reg(511)[63], 9u);
  b.reg(3)[7] = 1;
  EXPECT_EQ(a.reg(3)[7], 42u);
  emu::VectorFile c;
  c = b;
  EXPECT_EQ(c.reg(3)[7], 1u);
  EXPECT_EQ(c.reg(511)[63], 9u);
}

}  // namespace
}  // namespace tilelab
