// Integer tuples.  Literal cases from pycute's test_int_tuple.py and CuTe's docs.
#include "layouts/int_tuple.hpp"

#include <gtest/gtest.h>

#include "parse_helpers.hpp"

namespace tilelab {
namespace {

using testing::I;

TEST(IntTuple, PrintsCuTeNotationAndKeepsRankOneTuples) {
  EXPECT_EQ(to_string(IntTuple(8)), "8");
  EXPECT_EQ(to_string(IntTuple{4}), "(4)");
  EXPECT_EQ(to_string(IntTuple{4, IntTuple{2, 3}}), "(4,(2,3))");
  EXPECT_EQ(to_string(IntTuple::empty_tuple()), "()");
  EXPECT_NE(IntTuple(4), IntTuple{4});
}

TEST(IntTuple, SizeRankDepth) {
  EXPECT_EQ(size(I("2")), 2);
  EXPECT_EQ(size(I("(3,2)")), 6);
  EXPECT_EQ(size(I("((2,3),4)")), 24);
  EXPECT_EQ(size(IntTuple::empty_tuple()), 1);
  EXPECT_EQ(rank(I("8")), 1);
  EXPECT_EQ(rank(I("(4,(2,3))")), 2);
  EXPECT_EQ(depth(I("8")), 0);
  EXPECT_EQ(depth(I("(4,8)")), 1);
  EXPECT_EQ(depth(I("(4,(2,(3,1)))")), 3);
}

TEST(IntTuple, Flatten) {
  EXPECT_EQ(flatten(I("8")), I("8"));
  EXPECT_EQ(flatten(I("(4,(2,(3,1)))")), I("(4,2,3,1)"));
}

TEST(IntTuple, Congruence) {
  EXPECT_TRUE(congruent(I("(4,(2,3))"), I("(1,(7,9))")));
  EXPECT_FALSE(congruent(I("(4,(2,3))"), I("(1,7)")));
  EXPECT_FALSE(congruent(I("(4)"), I("4")));
  EXPECT_TRUE(weakly_congruent(I("(1,2)"), I("(4,(2,3))")));
  EXPECT_FALSE(weakly_congruent(I("(4,(2,3))"), I("(1,2)")));
}

TEST(IntTuple, PrefixProductFromPycute) {
  EXPECT_EQ(prefix_product(I("2")), I("1"));
  EXPECT_EQ(prefix_product(I("(3,2)")), I("(1,3)"));
  EXPECT_EQ(prefix_product(I("(3,2,4)")), I("(1,3,6)"));
  EXPECT_EQ(prefix_product(I("((2,3),4)")), I("((1,2),6)"));
  EXPECT_EQ(prefix_product(I("((2,3),(2,1,2),(5,2,1))")), I("((1,2),(6,12,12),(24,120,240))"));
}

TEST(IntTuple, ShapeDivFromPycute) {
  EXPECT_EQ(shape_div(I("(3,4)"), I("6")), I("(1,2)"));
  EXPECT_EQ(shape_div(I("(3,4)"), I("12")), I("(1,1)"));
  EXPECT_EQ(shape_div(I("(3,4)"), I("36")), I("(1,1)"));
  EXPECT_EQ(shape_div(I("((3,4),6)"), I("36")), I("((1,1),2)"));
  EXPECT_EQ(shape_div(I("(6,(3,4))"), I("36")), I("(1,(1,2))"));
  EXPECT_THROW(shape_div(I("6"), I("4")), LayoutError);
}

TEST(IntTuple, CeilDiv) {
  EXPECT_EQ(ceil_div(I("7"), I("2")), I("4"));
  EXPECT_EQ(ceil_div(I("(4,6)"), I("(3,4)")), I("(2,2)"));
  EXPECT_EQ(ceil_div(I("(4,6)"), I("8")), I("(1,3)"));  // 8 takes all of 4, then 2 of 6
  EXPECT_EQ(product_each(I("(2,(3,4))")), I("(2,12)"));
}

TEST(IntTuple, CoordinatesRoundTrip) {
  IntTuple shape = I("(4,(2,3))");
  for (Int i = 0; i < size(shape); ++i) EXPECT_EQ(crd2idx(idx2crd(i, shape), shape), i);
  EXPECT_EQ(idx2crd(13, shape), I("(1,(1,1))"));
  EXPECT_EQ(crd2idx(I("(1,5)"), shape), 21);  // an integer coordinate of a tuple mode is split
  EXPECT_EQ(crd2crd(I("(1,5)"), I("(4,(2,3))"), shape), I("(1,(1,2))"));
  EXPECT_THROW(crd2idx(I("(1,2,3)"), shape), LayoutError);
}

TEST(IntTuple, SliceAndDice) {
  IntTuple t = I("((2,3),4,5)");
  EXPECT_EQ(slice(I("(_,1,_)"), t), I("((2,3),5)"));
  EXPECT_EQ(dice(I("(_,1,_)"), t), I("(4)"));
  EXPECT_EQ(slice(I("((1,_),_,2)"), t), I("(3,4)"));
  EXPECT_EQ(slice(I("_"), t), t);
}

TEST(IntTuple, OverflowIsAnError) {
  EXPECT_THROW(size(I("(4503599627370496,4503599627370496)")), LayoutError);
}

// At most kMaxTupleNodes integers and sub-tuples, wherever a tuple grows:
// built mode by mode, parsed, or made by the algebra (flatten of nested modes).
TEST(IntTuple, SizeIsBounded) {
  IntTuple t = IntTuple::empty_tuple();
  for (int i = 1; i < kMaxTupleNodes; ++i) t.push_back(1);  // the root plus 4095 leaves: the limit
  try {
    t.push_back(1);
    FAIL() << "a tuple of 4097 nodes was built";
  } catch (const LayoutError& e) {
    EXPECT_STREQ(e.what(), "a tuple of more than 4096 integers and sub-tuples (the limit for a shape, stride or coordinate)");
  }
  EXPECT_EQ(t.rank(), kMaxTupleNodes - 1);
  std::string text = "(";
  for (int i = 0; i < kMaxTupleNodes; ++i) text += i ? ",1" : "1";
  EXPECT_THROW(I(text + ")"), LayoutError);
  // Sub-tuples count: 1364 pairs are 1 + 1364 x 3 = 4093 nodes; flattened, 2729.
  IntTuple pairs = IntTuple::empty_tuple();
  for (int i = 0; i < 1364; ++i) pairs.push_back(IntTuple{1, 1});
  EXPECT_EQ(flatten(pairs).rank(), 2728);
}

}  // namespace
}  // namespace tilelab
