// Tile accesses from layouts and the swizzle search (gfx950).
#include "sim/lds/swizzle_search.hpp"

#include <gtest/gtest.h>

#include "layouts/expr.hpp"

namespace tilelab {
namespace {

Layout L(const char* s) { return std::get<Layout>(evaluate(s)); }

struct Gfx950 {
  arch::Arch a = arch::load_arch("gfx950");
  lds::BankModel write{a, a.instruction("ds_write_b128")};
  lds::BankModel read{a, a.instruction("ds_read_b128")};
  // A 64x64 bf16 tile written row by row: 8 lanes per 128-byte row, 16 bytes each.
  TVLayout write_tv = make_layout_tv(L("(8,8):(8,1)"), L("(1,8):(1,1)"));
  // Read as v_mfma_f32_16x16x32_bf16 A operands: lane l holds row l%16, k 8(l/16)..+7.
  TVLayout read_tv = make_layout_tv(L("(16,4):(1,16)"), L("(1,8):(1,1)"));
};

TEST(TileAccess, MfmaReadsOfTheRowMajorTile) {
  Gfx950 g;
  Layout row_major = L("(64,64):(64,1)");
  lds::TileReport r = lds::analyze_tile(g.read, g.read_tv, IntTuple{64, 64},
                                        [&](Int m, Int n) { return row_major(IntTuple{m, n}); }, 2);
  ASSERT_EQ(r.instructions.size(), 8u);  // 4 row blocks x 2 k blocks
  EXPECT_EQ(r.instructions[0].addresses[17], 128u * 1 + 16u * 1);  // lane 17: row 1, k 8..15
  EXPECT_EQ(r.instructions[1].addresses[0], 128u * 16);             // next repetition: rows 16..31
  EXPECT_EQ(r.conflict_cycles, 8 * 12);
}

TEST(TileAccess, SplitVectorIsRefused) {
  Gfx950 g;
  Layout col_major = L("(64,64):(1,64)");
  EXPECT_THROW(lds::analyze_tile(g.read, g.read_tv, IntTuple{64, 64},
                                 [&](Int m, Int n) { return col_major(IntTuple{m, n}); }, 2),
               lds::ModelError);
}

TEST(SwizzleSearch, FindsAConflictFreeSwizzleForTheMfmaTile) {
  Gfx950 g;
  lds::SearchResult s = lds::search_swizzles({g.write_tv, &g.write}, {g.read_tv, &g.read}, 64, 64, 2);
  EXPECT_EQ(s.plain.write_conflicts, 0);
  EXPECT_EQ(s.plain.read_conflicts, 96);
  ASSERT_FALSE(s.ranked.empty());
  const lds::Candidate& best = s.ranked.front();
  EXPECT_EQ(best.total(), 0) << best.layout;
  EXPECT_EQ(best.extra_bytes, 0);
  ASSERT_TRUE(best.swizzle.has_value());
  EXPECT_GE(best.swizzle->base, 3);  // keeps 8-element (16-byte) vectors whole
  EXPECT_GT(s.evaluated, 50);
  EXPECT_GT(s.skipped, 0);  // swizzles with M < 3 would split the 16-byte vectors
  // The ranking is by total conflict cycles.
  for (std::size_t i = 1; i < s.ranked.size(); ++i) EXPECT_LE(s.ranked[i - 1].total(), s.ranked[i].total());
}

}  // namespace
}  // namespace tilelab
