// Swizzles, swizzled layouts and recasting between element types.
#include "layouts/swizzle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "parse_helpers.hpp"

namespace tilelab {
namespace {

using testing::L;
using testing::V;

TEST(Swizzle, XorsTheShiftedBits) {
  // Sw<3,4,3>: bits [7,10) are XORed into bits [4,7).
  Swizzle sw(3, 4, 3);
  EXPECT_EQ(sw(0), 0);
  EXPECT_EQ(sw(15), 15);                         // below 2^M: untouched
  EXPECT_EQ(sw(1 << 7), (1 << 7) | (1 << 4));    // bit 7 -> also bit 4
  EXPECT_EQ(sw((5 << 7) | (2 << 4) | 3), (5 << 7) | ((2 ^ 5) << 4) | 3);
  // Negative shift moves low bits up: Sw<2,0,-3> XORs bits [0,2) into [3,5).
  Swizzle up(2, 0, -3);
  EXPECT_EQ(up(3), 3 | (3 << 3));
}

TEST(Swizzle, IsAnInvolutionAndAPermutationOfEachBlock) {
  for (int b = 0; b <= 3; ++b)
    for (int m = 0; m <= 4; ++m)
      for (int s = b; s <= 4; ++s) {
        Swizzle sw(b, m, s);
        Int block = Int{1} << (b + m + s);
        std::set<Int> seen;
        for (Int x = 0; x < block; ++x) {
          ASSERT_EQ(sw(sw(x)), x);
          Int y = sw(x);
          ASSERT_LT(y, block);
          seen.insert(y);
        }
        ASSERT_EQ(static_cast<Int>(seen.size()), block);
      }
}

TEST(Swizzle, RejectsInvalidParameters) {
  EXPECT_THROW(Swizzle(3, 4, 2), LayoutError);  // |S| < B would not be an involution
  EXPECT_THROW(Swizzle(-1, 4, 3), LayoutError);
}

TEST(ComposedLayout, ParsesPrintsAndEvaluates) {
  auto c = std::get<ComposedLayout>(V("Sw<3,4,3> o (8,64):(64,1)"));
  EXPECT_EQ(to_string(c), "Sw<3,4,3> o (8,64):(64,1)");
  EXPECT_EQ(c(IntTuple{1, 0}), Swizzle(3, 4, 3)(64));
  EXPECT_EQ(c(IntTuple{2, 17}), Swizzle(3, 4, 3)(2 * 64 + 17));
  auto o = std::get<ComposedLayout>(V("Sw<2,0,2> o 8 o 16:1"));
  EXPECT_EQ(to_string(o), "Sw<2,0,2> o 8 o 16:1");
  EXPECT_EQ(o(Int{1}), Swizzle(2, 0, 2)(9));
}

// The byte offsets a layout of `bits`-wide elements touches, one set per element.
std::vector<std::vector<Int>> bytes_of_elements(const ComposedLayout& c, int bits) {
  std::vector<std::vector<Int>> out;
  Int bytes = bits / 8;
  for (Int i = 0; i < size(c.layout); ++i) {
    std::vector<Int> b;
    for (Int k = 0; k < bytes; ++k) b.push_back(c(i) * bytes + k);
    out.push_back(b);
  }
  return out;
}

std::set<Int> all_bytes(const ComposedLayout& c, int bits) {
  std::set<Int> s;
  for (const auto& e : bytes_of_elements(c, bits)) s.insert(e.begin(), e.end());
  return s;
}

TEST(Recast, SwizzledTileCoversTheSameBytes) {
  // A 64x64 bf16 tile in LDS, rows of 128 bytes, 16-byte chunks swizzled.
  auto bf16 = std::get<ComposedLayout>(V("Sw<3,3,3> o (64,64):(64,1)"));
  ComposedLayout f32 = recast(bf16, 16, 32);
  ComposedLayout u8 = recast(bf16, 16, 8);
  EXPECT_EQ(to_string(f32), "Sw<3,2,3> o (64,32):(32,1)");
  EXPECT_EQ(to_string(u8), "Sw<3,4,3> o (64,128):(128,1)");
  EXPECT_EQ(all_bytes(f32, 32), all_bytes(bf16, 16));
  EXPECT_EQ(all_bytes(u8, 8), all_bytes(bf16, 16));
  // Element by element: f32 element (r, c) holds exactly bf16 elements (r, 2c) and (r, 2c+1).
  for (Int r = 0; r < 64; ++r)
    for (Int c = 0; c < 32; ++c) {
      Int f = f32(IntTuple{r, c}) * 4;
      EXPECT_EQ(bf16(IntTuple{r, 2 * c}) * 2, f);
      EXPECT_EQ(bf16(IntTuple{r, 2 * c + 1}) * 2, f + 2);
    }
}

TEST(Recast, F32IsScaledByBytesNotBits) {
  // f32 -> f16 halves the element: M grows by exactly one (log2 of 4 bytes / 2 bytes).
  auto f32 = std::get<ComposedLayout>(V("Sw<2,2,3> o (16,32):(32,1)"));
  EXPECT_EQ(to_string(recast(f32, 32, 16)), "Sw<2,3,3> o (16,64):(64,1)");
  EXPECT_EQ(all_bytes(recast(f32, 32, 16), 16), all_bytes(f32, 32));
}

TEST(Recast, DowncastPropertyOverManyLayouts) {
  std::mt19937 rng(11);
  for (int n = 0; n < 2000; ++n) {
    Int rows = Int{1} << (rng() % 4), cols = Int{1} << (1 + rng() % 5);
    int b = 1 + rng() % 3, m = 1 + rng() % 3, s = b + rng() % 2;
    ComposedLayout c{Swizzle(b, m, s), 0, Layout(IntTuple{rows, cols}, IntTuple{cols, 1})};
    ComposedLayout half = recast(c, 32, 16);
    std::set<Int> expect;
    for (Int i = 0; i < size(c.layout); ++i) {
      expect.insert(2 * c(i));
      expect.insert(2 * c(i) + 1);
    }
    std::set<Int> got;
    for (Int i = 0; i < size(half.layout); ++i) got.insert(half(i));
    ASSERT_EQ(got, expect) << to_string(c) << " -> " << to_string(half);
    ASSERT_EQ(recast(half, 16, 32), c);  // and back
  }
}

TEST(Recast, RefusesWhatCannotBeExpressed) {
  auto c = std::get<ComposedLayout>(V("Sw<3,0,3> o (8,8):(8,1)"));
  EXPECT_THROW(recast(c, 8, 16), LayoutError);  // the swizzle permutes single bytes
  EXPECT_THROW(recast(L("(8,8):(8,1)"), 24, 8), LayoutError);
}

}  // namespace
}  // namespace tilelab
