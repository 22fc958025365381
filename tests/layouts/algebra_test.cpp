// Literal cases of the layout algebra, each from a reference: CuTe's
// 02_layout_algebra.md ("docs"), the issue that specified this engine (which
// quotes the docs and pycute), and pycute's unit tests.
#include "layouts/algebra.hpp"

#include <gtest/gtest.h>

#include "parse_helpers.hpp"

namespace tilelab {
namespace {

using testing::E;
using testing::I;
using testing::L;
using testing::T;

std::string S(const Layout& l) { return to_string(l); }

TEST(Composition, DocsWorkedExample) {
  EXPECT_EQ(S(composition(L("(6,2):(8,2)"), L("(4,3):(3,1)"))), "((2,2),3):((24,2),8)");
}

TEST(Composition, DocsReshapeExamples) {
  EXPECT_EQ(S(composition(L("20:2"), L("(5,4):(4,1)"))), "(5,4):(8,2)");
  // The static-integer result printed by the docs; tilelab drops size-1 modes as pycute does.
  EXPECT_EQ(S(composition(L("(10,2):(16,4)"), L("(5,4):(1,5)"))), "(5,(2,2)):(16,(80,4))");
}

TEST(Composition, DocsDivideOutAndModOut) {
  // (3,6,2,8):(w,x,y,z) o 16:9 = (1,2,2,4):(9w,3x,y,z), with w,x,y,z = 1,5,100,1000.
  EXPECT_EQ(S(composition(L("(3,6,2,8):(1,5,100,1000)"), L("16:9"))), "(2,2,4):(15,100,1000)");
}

TEST(Composition, DocsByModeTilers) {
  Layout a = L("(12,(4,8)):(59,(13,1))");
  EXPECT_EQ(S(composition(a, T("<3:4,8:2>"))), "(3,(2,4)):(236,(26,1))");
  EXPECT_EQ(S(composition(a, T("(3,8)"))), "(3,(4,2)):(59,(13,1))");
  EXPECT_EQ(S(composition(a, T("<_,2:4>"))), "(12,2):(59,1)");  // offsets 0 and 4 of (4,8):(13,1)
}

TEST(Composition, TrivialCases) {
  EXPECT_EQ(S(composition(L("4:2"), L("(2,2):(2,1)"))), "(2,2):(4,2)");
  EXPECT_EQ(S(composition(L("8:2"), L("4:0"))), "4:0");
  EXPECT_EQ(S(composition(L("(4,2):(1,8)"), L("(4):(2)"))), "((2,2)):((2,8))");
}

TEST(Composition, RefusesWhatIsNotAdmissible) {
  try {
    composition(L("(6,2):(1,7)"), L("4:4"));
    FAIL() << "expected a stride divisibility error";
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("stride divisibility"), std::string::npos) << e.what();
  }
  try {
    composition(L("(4,3):(1,5)"), L("6:1"));
    FAIL() << "expected a shape divisibility error";
  } catch (const LayoutError& e) {
    EXPECT_NE(std::string(e.what()).find("shape divisibility"), std::string::npos) << e.what();
  }
}

TEST(Complement, DocsExamples) {
  EXPECT_EQ(S(complement(L("4:1"), 24)), "6:4");
  EXPECT_EQ(S(complement(L("6:4"), 24)), "4:1");
  EXPECT_EQ(S(complement(L("(4,6):(1,4)"), 24)), "1:0");
  EXPECT_EQ(S(complement(L("4:2"), 24)), "(2,3):(1,8)");
  EXPECT_EQ(S(complement(L("(2,4):(1,6)"), 24)), "3:2");
  EXPECT_EQ(S(complement(L("(2,2):(1,6)"), 24)), "(3,2):(2,12)");
}

TEST(Complement, RefusesOverlappingModes) {
  EXPECT_THROW(complement(L("(2,2):(1,1)"), 8), LayoutError);
  EXPECT_THROW(complement(L("(2,2):(4,3)"), 16), LayoutError);
}

TEST(Inverse, RightInverseFromTheIssue) {
  EXPECT_EQ(S(right_inverse(L("(2,4):(4,1)"))), "(4,2):(2,1)");
  EXPECT_EQ(S(right_inverse(L("(4,8):(1,4)"))), "32:1");
  EXPECT_EQ(S(right_inverse(L("(4,2):(2,1)"))), "(2,4):(4,1)");
  EXPECT_EQ(S(right_inverse(L("4:2"))), "1:0");  // no stride-1 mode: only offset 0 is reached
}

TEST(Inverse, LeftInverse) {
  EXPECT_EQ(S(left_inverse(L("(2,4):(4,1)"))), "(4,2):(2,1)");
  EXPECT_EQ(S(left_inverse(L("4:2"))), "(2,4):(4,1)");  // picks 0..3 back out of 0,2,4,6
}

TEST(Divide, DocsOneDimensional) {
  EXPECT_EQ(S(logical_divide(L("(4,2,3):(2,1,8)"), L("4:2"))), "((2,2),(2,3)):((4,1),(2,8))");
}

TEST(Divide, DocsTwoDimensional) {
  Layout a = L("(9,(4,8)):(59,(13,1))");
  Tiler t = T("<3:3,(2,4):(1,8)>");
  EXPECT_EQ(S(logical_divide(a, t)), "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))");
  EXPECT_EQ(S(zipped_divide(a, t)), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
  EXPECT_EQ(S(tiled_divide(a, t)), "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))");
  EXPECT_EQ(S(flat_divide(a, t)), "(3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))");
  // docs: layout<0>(zipped_divide(a, b)) == composition(a, b)
  EXPECT_EQ(get(zipped_divide(a, t), 0), composition(a, t));
}

TEST(Divide, IntegerAndShapeTilers) {
  EXPECT_EQ(S(logical_divide(L("16:1"), T("4"))), "(4,4):(1,4)");
  EXPECT_EQ(S(zipped_divide(L("(8,8):(1,8)"), T("(2,4)"))), "((2,4),(4,2)):((1,8),(2,32))");
  EXPECT_EQ(S(zipped_divide(L("(8,8):(1,8)"), T("<_,4>"))), "((1,4),(8,2)):((0,8),(1,32))");
}

TEST(Product, DocsOneDimensional) {
  EXPECT_EQ(S(logical_product(L("(2,2):(4,1)"), L("6:1"))), "((2,2),(2,3)):((4,1),(2,8))");
  // pycute test_product: an integer tiler behaves as Layout(n).
  EXPECT_EQ(logical_product(L("(2,5):(5,1)"), T("4")), logical_product(L("(2,5):(5,1)"), L("4:1")));
}

TEST(Product, BlockedAndRakedFromTheIssue) {
  EXPECT_EQ(S(blocked_product(L("(2,5):(5,1)"), L("(3,4):(1,3)"))), "((2,3),(5,4)):((5,10),(1,30))");
  EXPECT_EQ(S(raked_product(L("(2,5):(5,1)"), L("(3,4):(1,3)"))), "((3,2),(4,5)):((10,5),(30,1))");
}

TEST(Product, ZippedTiledFlat) {
  // The by-mode product of the docs' 2-D example: a 2x5 row-major block over 3x4 tiles.
  Layout a = L("(2,5):(5,1)");
  Tiler t = T("<3:5,4:6>");
  EXPECT_EQ(S(logical_product(a, t)), "((2,3),(5,4)):((5,10),(1,30))");
  EXPECT_EQ(S(zipped_product(a, t)), "((2,5),(3,4)):((5,1),(10,30))");
  EXPECT_EQ(S(tiled_product(a, t)), "((2,5),3,4):((5,1),10,30)");
  EXPECT_EQ(S(flat_product(a, t)), "(2,5,3,4):(5,1,10,30)");
}

TEST(Shapes, MakeOrderedLayout) {
  EXPECT_EQ(S(make_ordered_layout(I("(4,8)"), I("(1,0)"))), "(4,8):(8,1)");
  EXPECT_EQ(S(make_ordered_layout(I("(2,3,4)"), I("(2,0,1)"))), "(2,3,4):(12,1,3)");
  EXPECT_EQ(S(make_ordered_layout(I("((2,2),8)"), I("(1,0)"))), "((2,2),8):((8,16),1)");
}

TEST(Shapes, TileToShape) {
  EXPECT_EQ(S(tile_to_shape(L("(2,2):(1,2)"), I("(4,6)"))), "((2,2),(2,3)):((1,4),(2,8))");
  EXPECT_EQ(S(tile_to_shape(L("(2,2):(1,2)"), I("(4,6)"), I("(1,0)"))), "((2,2),(2,3)):((1,12),(2,4))");
  EXPECT_THROW(tile_to_shape(L("(3,2):(1,3)"), I("(4,6)")), LayoutError);
}

TEST(Expressions, NestedCallsEvaluate) {
  EXPECT_EQ(E("size(composition((6,2):(8,2),(4,3):(3,1)))"), "12");
  EXPECT_EQ(E("(6,2):(8,2) o (4,3):(3,1)"), "((2,2),3):((24,2),8)");
  EXPECT_EQ(E("complement( 4 : 2 , 24 )"), "(2,3):(1,8)");
  EXPECT_EQ(E("eval((4,8):(8,1), (1,_))"), "(8):(1)");
}

}  // namespace
}  // namespace tilelab
