// Thread–value layouts.  The literal case is the gfx950 MFMA operand layout
// from the CDNA4 ISA (docs/facts/arch-facts.md, "Operand layouts").
#include "layouts/tv_layout.hpp"

#include <gtest/gtest.h>

#include <random>

#include "parse_helpers.hpp"

namespace tilelab {
namespace {

using testing::L;

// v_mfma_f32_16x16x32_bf16, operand A (16 rows x 32 k): lane l holds row l%16
// and k = 8·(l/16) … 8·(l/16)+7, one k per value (4 VGPRs of bf16 pairs).
TEST(TVLayout, Mfma16x16x32Bf16OperandA) {
  TVLayout a = make_layout_tv(L("(16,4):(1,16)"), L("(1,8):(1,1)"));
  EXPECT_EQ(to_string(a.tile_shape), "(16,32)");
  EXPECT_EQ(to_string(a.tv), "((16,4),8):((1,128),16)");
  EXPECT_EQ(a.threads, 64);
  EXPECT_EQ(a.values, 8);
  for (Int lane = 0; lane < 64; ++lane) {
    std::vector<IntTuple> held = partition(a, lane);
    ASSERT_EQ(held.size(), 8u);
    for (Int v = 0; v < 8; ++v) {
      EXPECT_EQ(held[v], (IntTuple{lane % 16, 8 * (lane / 16) + v})) << "lane " << lane << " value " << v;
      ThreadValue o = owner_of(a, held[v]);
      EXPECT_EQ(o.thread, lane);
      EXPECT_EQ(o.value, v);
    }
  }
}

TEST(TVLayout, OwnerAndPartitionAreInverseForManyThreadLayouts) {
  std::mt19937 rng(21);
  for (int n = 0; n < 2000; ++n) {
    Int tm = Int{1} << (rng() % 4), tn = Int{1} << (rng() % 4);
    Int vm = Int{1} << (rng() % 3), vn = Int{1} << (rng() % 3);
    bool row_major = rng() % 2;
    Layout thr = row_major ? Layout(IntTuple{tm, tn}, IntTuple{tn, 1}) : Layout(IntTuple{tm, tn});
    Layout val = Layout(IntTuple{vm, vn});
    TVLayout tv = make_layout_tv(thr, val);
    ASSERT_EQ(size(tv.tile_shape), tm * tn * vm * vn);
    for (Int t = 0; t < tv.threads; ++t) {
      std::vector<IntTuple> held = partition(tv, t);
      for (Int v = 0; v < tv.values; ++v) {
        ThreadValue o = owner_of(tv, held[v]);
        ASSERT_EQ(o.thread, t) << to_string(thr) << " " << to_string(val);
        ASSERT_EQ(o.value, v);
        // Each thread holds a vm x vn block: value v at (v % vm, v / vm) inside it.
        Int m = held[v][0].value(), n = held[v][1].value();
        ASSERT_EQ(m % vm, v % vm);
        ASSERT_EQ(n % vn, v / vm);
        ASSERT_EQ(m / vm, held[0][0].value() / vm);
        ASSERT_EQ(n / vn, held[0][1].value() / vn);
      }
    }
  }
}

TEST(TVLayout, RejectsThreadLayoutsWithHoles) {
  EXPECT_THROW(make_layout_tv(L("(4,4):(1,8)"), L("(2,1):(1,2)")), LayoutError);
  EXPECT_THROW(partition(make_layout_tv(L("4:1"), L("2:1")), 4), LayoutError);
}

}  // namespace
}  // namespace tilelab
