// Layouts: construction, evaluation, modes, slicing, coalesce and filter.
#include "layouts/layout.hpp"

#include <gtest/gtest.h>

#include "parse_helpers.hpp"

namespace tilelab {
namespace {

using testing::I;
using testing::L;

TEST(Layout, CompactColumnMajorByDefault) {
  EXPECT_EQ(to_string(Layout(I("(4,(2,3))"))), "(4,(2,3)):(1,(4,8))");
  EXPECT_EQ(to_string(Layout()), "1:0");
}

TEST(Layout, RejectsMalformed) {
  EXPECT_THROW(Layout(I("(4,8)"), I("(1,(4,2))")), LayoutError);
  EXPECT_THROW(Layout(I("(4,0)"), I("(1,4)")), LayoutError);
}

TEST(Layout, EvaluatesIndicesAndCoordinates) {
  // CuTe docs (01_layout): (4,(2,3)):(2,(1,8)) maps 1-D, 2-D and natural coordinates alike.
  Layout l = L("(4,(2,3)):(2,(1,8))");
  EXPECT_EQ(l(Int{0}), 0);
  EXPECT_EQ(l(Int{1}), 2);
  EXPECT_EQ(l(Int{4}), 1);
  EXPECT_EQ(l(Int{8}), 8);
  EXPECT_EQ(l(Int{23}), 6 + 1 + 16);
  EXPECT_EQ(l(I("(1,3)")), 2 + 1 + 8);
  EXPECT_EQ(l(I("(1,(1,1))")), 2 + 1 + 8);
  EXPECT_EQ(size(l), 24);
  EXPECT_EQ(cosize(l), 24);
  EXPECT_EQ(rank(l), 2);
  EXPECT_EQ(depth(l), 2);
}

TEST(Layout, Modes) {
  Layout l = L("(2,(3,4),5):(1,(2,6),24)");
  EXPECT_EQ(get(l, 1), L("(3,4):(2,6)"));
  EXPECT_EQ(select(l, {2, 0}), L("(5,2):(24,1)"));
  EXPECT_EQ(group(l, 0, 2), L("((2,(3,4)),5):((1,(2,6)),24)"));
  EXPECT_EQ(group(l, 1, 3), L("(2,((3,4),5)):(1,((2,6),24))"));
  EXPECT_EQ(append(L("4:1"), L("8:4")), L("(4,8):(1,4)"));
  EXPECT_EQ(prepend(L("(4,8):(1,4)"), L("2:32")), L("(2,4,8):(32,1,4)"));
  EXPECT_EQ(append_to_rank(L("4:1"), 3), L("(4,1,1):(1,0,0)"));
  EXPECT_EQ(flatten(l), L("(2,3,4,5):(1,2,6,24)"));
  EXPECT_THROW(get(l, 3), LayoutError);
}

TEST(Layout, SliceKeepsUnderscoreModesAsATuple) {
  Layout l = L("(4,8):(1,4)");
  EXPECT_EQ(to_string(slice(I("(2,_)"), l)), "(8):(4)");
  EXPECT_EQ(to_string(dice(I("(2,_)"), l)), "(4):(1)");
  Layout h = L("((2,3),(4,5)):((1,2),(6,24))");
  EXPECT_EQ(to_string(slice(I("((_,1),_)"), h)), "(2,(4,5)):(1,(6,24))");
}

TEST(Layout, CoalesceFromCuTeDocs) {
  EXPECT_EQ(to_string(coalesce(L("(2,(1,6)):(1,(6,2))"))), "12:1");
  EXPECT_EQ(to_string(coalesce(L("(2,(1,6)):(1,(6,2))"), I("(1,1)"))), "(2,6):(1,2)");
  EXPECT_EQ(to_string(coalesce(L("(2,4):(1,2)"))), "8:1");
  EXPECT_EQ(to_string(coalesce(L("(2,4):(4,1)"))), "(2,4):(4,1)");
  EXPECT_EQ(to_string(coalesce(L("(1,1):(3,5)"))), "1:0");
}

TEST(Layout, FilterDropsBroadcastModes) {
  EXPECT_EQ(to_string(filter(L("(4,2,8):(1,0,4)"))), "32:1");
  EXPECT_EQ(to_string(filter(L("(4,2):(0,0)"))), "1:0");
  EXPECT_EQ(to_string(filter(L("((4,2),8):((1,0),16)"), I("(1,1)"))), "(4,8):(1,16)");
}

}  // namespace
}  // namespace tilelab
