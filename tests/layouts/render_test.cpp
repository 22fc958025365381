// Pictures of layouts.
#include "layouts/render.hpp"

#include <gtest/gtest.h>

#include "parse_helpers.hpp"

namespace tilelab {
namespace {

using testing::L;
using testing::V;

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(Render, TableOfARank2Layout) {
  EXPECT_EQ(table(L("(2,3):(3,1)")),
            "(2,3):(3,1)\n"
            "    0   1   2\n"
            "  +---+---+---+\n"
            "0 | 0 | 1 | 2 |\n"
            "  +---+---+---+\n"
            "1 | 3 | 4 | 5 |\n"
            "  +---+---+---+\n");
}

TEST(Render, Rank1IsOneRowAndHierarchicalModesAreFlattenedPerMode) {
  EXPECT_EQ(count(table(L("8:2")), "\n"), 5);  // title, column numbers, rule, one row, rule
  std::string t = table(L("((2,2),2):((1,4),2)"));
  EXPECT_NE(t.find("0 | 0 | 2 |"), std::string::npos) << t;  // row 0: (0,0)=0, (0,1)=2
  EXPECT_NE(t.find("3 | 5 | 7 |"), std::string::npos) << t;  // row 3 = (1,1): 1+4, then +2
  EXPECT_THROW(table(L("(2,2,2):(1,2,4)")), LayoutError);
  EXPECT_THROW(table(L("(512,512):(1,512)")), LayoutError);
}

TEST(Render, SwizzledTableShowsSwizzledOffsets) {
  auto c = std::get<ComposedLayout>(V("Sw<1,0,1> o (2,2):(2,1)"));
  std::string t = table(c);
  EXPECT_NE(t.find("0 | 0 | 1 |"), std::string::npos) << t;
  EXPECT_NE(t.find("1 | 3 | 2 |"), std::string::npos) << t;  // row 1 has its two words swapped
}

TEST(Render, MfmaOperandPictureLabelsEveryCell) {
  TVLayout a = make_layout_tv(L("(16,4):(1,16)"), L("(1,8):(1,1)"));
  std::string text = table(a);
  EXPECT_EQ(count(text, "T"), 16 * 32);  // every cell labelled once
  EXPECT_NE(text.find("| T17V0 | T17V1 |"), std::string::npos);  // row 1, k = 8, 9 belong to lane 17
  std::string pic = svg(a);
  EXPECT_EQ(pic.rfind("<svg", 0), 0u);
  EXPECT_EQ(count(pic, "<rect"), 16 * 32);
  EXPECT_EQ(count(pic, ">T0V0<"), 1);
  EXPECT_EQ(count(pic, ">T63V7<"), 1);
}

}  // namespace
}  // namespace tilelab
