// Property tests: the defining identity of every algebra operation, checked
// on tens of thousands of generated layouts (fixed seeds, so every run checks
// the same layouts and a failure names a reproducible case).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "layouts/algebra.hpp"

namespace tilelab {
namespace {

constexpr int kCases = 12000;  // ≥ 10,000 layouts per property

class Gen {
 public:
  explicit Gen(unsigned seed) : rng_(seed) {}

  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  Int pow2(int max_log) { return Int{1} << uniform(0, max_log); }
  Int small_shape() {
    static const Int kShapes[] = {1, 2, 2, 2, 3, 4, 4, 6, 8};
    return kShapes[uniform(0, 8)];
  }

  // Nest flat modes into a random rank-1..3, depth ≤ 2 tree.
  Layout nest(const FlatLayout& f) {
    std::vector<Layout> modes;
    std::size_t i = 0;
    while (i < f.rank()) {
      std::size_t take = std::min<std::size_t>(f.rank() - i, uniform(1, 2));
      if (take == 1 && uniform(0, 1)) {
        modes.push_back(make_layout_unchecked(f.shape[i], f.stride[i]));
      } else {
        std::vector<Layout> inner;
        for (std::size_t k = 0; k < take; ++k) inner.push_back(make_layout_unchecked(f.shape[i + k], f.stride[i + k]));
        modes.push_back(make_layout(inner));
      }
      i += take;
    }
    if (modes.size() == 1 && !modes[0].shape().is_tuple() && uniform(0, 1)) return modes[0];
    return make_layout(modes);
  }

  // Any layout: shapes small, strides anywhere in [0, 40].
  Layout any_layout() {
    FlatLayout f;
    int n = uniform(1, 4);
    for (int i = 0; i < n; ++i) f.push(small_shape(), uniform(0, 40));
    return nest(f);
  }

  // An injective layout whose modes nest (the complement precondition):
  // sorted by stride, each stride a multiple of the previous extent.  The
  // modes are then shuffled.
  Layout nested_injective(bool with_gaps, int max_modes = 4) {
    FlatLayout f;
    int n = uniform(1, max_modes);
    Int extent = 1;
    for (int i = 0; i < n; ++i) {
      Int s = small_shape();
      Int d = extent * (with_gaps ? static_cast<Int>(uniform(1, 3)) : 1);
      f.push(s, d);
      extent = s * d;
    }
    shuffle(f);
    return nest(f);
  }

  // Power-of-two layouts: their compositions are almost always admissible.
  Layout pow2_layout(bool allow_zero_stride) {
    FlatLayout f;
    int n = uniform(1, 4);
    for (int i = 0; i < n; ++i) f.push(pow2(3), allow_zero_stride && uniform(0, 7) == 0 ? 0 : pow2(5));
    return nest(f);
  }

  void shuffle(FlatLayout& f) {
    for (std::size_t i = f.rank(); i > 1; --i) {
      std::size_t j = uniform(0, static_cast<int>(i) - 1);
      std::swap(f.shape[i - 1], f.shape[j]);
      std::swap(f.stride[i - 1], f.stride[j]);
    }
  }

 private:
  std::mt19937 rng_;
};

std::vector<Int> image(const Layout& l) {
  std::vector<Int> v;
  for (Int i = 0; i < size(l); ++i) v.push_back(l(i));
  return v;
}

std::vector<Int> sorted_image(const Layout& l) {
  std::vector<Int> v = image(l);
  std::sort(v.begin(), v.end());
  return v;
}

bool injective(const Layout& l) {
  std::vector<Int> v = sorted_image(l);
  return std::adjacent_find(v.begin(), v.end()) == v.end();
}

// compatible(B, R): R takes B's coordinates: same profile down to B's leaves, same sizes there.
bool compatible(const IntTuple& b, const IntTuple& r) {
  if (!b.is_tuple()) return size(r) == b.value();
  if (!r.is_tuple() || r.rank() != b.rank()) return false;
  for (int i = 0; i < b.rank(); ++i)
    if (!compatible(b[i], r[i])) return false;
  return true;
}

TEST(Properties, CompositionIsFunctionComposition) {
  // R(i) == A(B(i)) is CuTe's guarantee for B injective apart from broadcast
  // (stride-0) modes; A is arbitrary.  (Overlapping B breaks left
  // distributivity, in CuTe too: A(x + y) need not be A(x) + A(y).)  Non-admissible pairs are refused and
  // do not count.
  Gen g(1);
  int checked = 0, refused = 0;
  for (int n = 0; checked < kCases && n < 20 * kCases; ++n) {
    Layout a = n % 2 ? g.pow2_layout(true) : g.nested_injective(true);
    Layout b = n % 3 ? g.pow2_layout(true) : g.nested_injective(true);
    if (!injective(filter(b))) continue;
    Layout r;
    try {
      r = composition(a, b);
    } catch (const LayoutError&) {
      ++refused;
      continue;
    }
    ++checked;
    ASSERT_TRUE(compatible(b.shape(), r.shape())) << to_string(a) << " o " << to_string(b) << " = " << to_string(r);
    // Where B points past A's domain, A(B(i)) depends on how A's last mode
    // is written (A and coalesce(A) extend differently), so only A's domain counts.
    for (Int i = 0; i < size(b); ++i) {
      if (b(i) >= size(a)) continue;
      ASSERT_EQ(r(i), a(b(i))) << to_string(a) << " o " << to_string(b) << " = " << to_string(r) << " at " << i;
    }
  }
  EXPECT_GE(checked, 10000) << refused << " refused";
}

TEST(Properties, RefusalsNameTheFailedCondition) {
  // Arbitrary pairs: many are not admissible; each refusal must say which
  // divisibility condition failed, and nothing else may be thrown.
  Gen g(2);
  int refusals = 0;
  for (int n = 0; n < kCases; ++n) {
    Layout a = g.any_layout(), b = g.any_layout();
    try {
      composition(a, b);
    } catch (const LayoutError& e) {
      std::string msg = e.what();
      ASSERT_TRUE(msg.find("divisibility") != std::string::npos) << msg;
      ++refusals;
    }
  }
  EXPECT_GT(refusals, 0);
}

TEST(Properties, ComplementIsOrderedDisjointAndCompletes) {
  Gen g(3);
  for (int n = 0; n < kCases; ++n) {
    Layout a = g.nested_injective(true);
    Int cotarget = cosize(a) * g.uniform(1, 3);
    Layout r = complement(a, cotarget);
    std::string what = "complement(" + to_string(a) + "," + std::to_string(cotarget) + ") = " + to_string(r);
    std::vector<Int> img = sorted_image(a);
    for (Int i = 1; i < size(r); ++i) {
      ASSERT_LT(r(i - 1), r(i)) << what;                                             // ordered
      ASSERT_FALSE(std::binary_search(img.begin(), img.end(), r(i))) << what;        // disjoint
    }
    Layout both = make_layout(a, r);
    ASSERT_TRUE(injective(both)) << what;
    ASSERT_GE(cosize(both), cotarget) << what;                                       // completes
    ASSERT_GE(size(r), cotarget / size(filter(a))) << what;
  }
}

TEST(Properties, RightInverseUndoesTheLayout) {
  Gen g(4);
  for (int n = 0; n < kCases; ++n) {
    Layout a = n % 2 ? g.any_layout() : g.nested_injective(false);
    Layout r = right_inverse(a);
    for (Int i = 0; i < size(r); ++i) ASSERT_EQ(a(r(i)), i) << to_string(a) << " -> " << to_string(r);
    if (n % 2 == 0) {
      ASSERT_EQ(size(r), size(a)) << to_string(a);  // a bijection is fully inverted
    }
  }
}

TEST(Properties, LeftInverseRecoversTheIndex) {
  Gen g(5);
  for (int n = 0; n < kCases; ++n) {
    Layout a = g.nested_injective(true);
    Layout r = left_inverse(a);
    for (Int i = 0; i < size(a); ++i) ASSERT_EQ(r(a(i)), i) << to_string(a) << " -> " << to_string(r);
  }
}

TEST(Properties, CoalesceKeepsTheFunction) {
  Gen g(6);
  for (int n = 0; n < kCases; ++n) {
    Layout a = g.any_layout();
    Layout c = coalesce(a);
    ASSERT_EQ(size(c), size(a));
    ASSERT_LE(depth(c), 1);
    for (Int i = 0; i < size(a); ++i) ASSERT_EQ(c(i), a(i)) << to_string(a) << " -> " << to_string(c);
    if (a.shape().is_tuple()) {
      IntTuple profile = product_each(a.shape());  // an integer per top-level mode
      Layout m = coalesce(a, profile);
      ASSERT_EQ(rank(m), rank(a));
      for (Int i = 0; i < size(a); ++i) ASSERT_EQ(m(i), a(i));
    }
  }
}

TEST(Properties, DividesKeepSizeAndOffsets) {
  Gen g(7);
  int checked = 0;
  for (int n = 0; n < kCases; ++n) {
    Layout a = g.nested_injective(false);  // a bijection onto [0, size)
    // A tile whose size divides size(a): a compact layout of a divisor, or a strided one.
    Int sz = size(a), t = 1;
    while (t * 2 <= sz && sz % (t * 2) == 0 && g.uniform(0, 2)) t *= 2;
    // Either t consecutive elements, or t/2 of them in each half of a.
    Layout tile(t, 1);
    if (t >= 2 && g.uniform(0, 1)) tile = Layout(IntTuple{t / 2, 2}, IntTuple{1, sz / 2});
    Layout d;
    try {
      d = logical_divide(a, tile);
    } catch (const LayoutError&) {
      continue;
    }
    ++checked;
    std::string what = "logical_divide(" + to_string(a) + "," + to_string(tile) + ") = " + to_string(d);
    ASSERT_EQ(size(d), sz) << what;
    ASSERT_EQ(sorted_image(d), sorted_image(a)) << what;
    ASSERT_EQ(image(get(d, 0)), image(composition(a, tile))) << what;
    ASSERT_EQ(sorted_image(zipped_divide(a, tile)), sorted_image(a)) << what;
    ASSERT_EQ(sorted_image(tiled_divide(a, tile)), sorted_image(a)) << what;
    ASSERT_EQ(sorted_image(flat_divide(a, tile)), sorted_image(a)) << what;
  }
  EXPECT_GE(checked, 10000);
}

TEST(Properties, ProductsKeepSizeAndReproduceTheBlock) {
  // A block with gaps can only be reproduced where B's steps fit the gaps;
  // the others are refused as not admissible and do not count.
  Gen g(8);
  int checked = 0;
  for (int n = 0; checked < kCases && n < 20 * kCases; ++n) {
    Layout a = g.nested_injective(g.uniform(0, 1) == 1, 3);
    Layout b = g.nested_injective(false, 2);
    Layout p;
    try {
      p = logical_product(a, b);
    } catch (const LayoutError&) {
      continue;
    }
    ++checked;
    std::string what = "logical_product(" + to_string(a) + "," + to_string(b) + ") = " + to_string(p);
    ASSERT_EQ(size(p), size(a) * size(b)) << what;
    ASSERT_EQ(get(p, 0), a) << what;
    ASSERT_TRUE(injective(p)) << what;  // every repetition of a lands on fresh offsets
    Layout blocked = blocked_product(a, b), raked = raked_product(a, b);
    ASSERT_EQ(rank(blocked), std::max(rank(a), rank(b))) << what;
    ASSERT_EQ(sorted_image(blocked), sorted_image(p)) << what;
    ASSERT_EQ(sorted_image(raked), sorted_image(p)) << what;
    ASSERT_EQ(sorted_image(zipped_product(a, b)), sorted_image(p)) << what;
    ASSERT_EQ(sorted_image(flat_product(a, b)), sorted_image(p)) << what;
  }
  EXPECT_GE(checked, 10000);
}

}  // namespace
}  // namespace tilelab
