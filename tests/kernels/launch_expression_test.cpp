// Launch-template expressions (kernels/launch_expression): literal values
// worked by hand, the grammar's errors, and a property test against integer
// arithmetic done directly.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "kernels/launch_expression.hpp"

namespace tilelab::kernels {
namespace {

const std::map<std::string, std::int64_t> kShape{{"M", 256}, {"N", 1000}, {"K", 128}};

std::int64_t value(const std::string& text, const std::map<std::string, std::int64_t>& shape = kShape) {
  return LaunchExpression::parse(text).whole(shape);
}

std::string error(const std::string& text, const std::map<std::string, std::int64_t>& shape = kShape) {
  try {
    LaunchExpression::parse(text).whole(shape);
  } catch (const LaunchExpressionError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(LaunchExpression, LiteralValues) {
  EXPECT_EQ(value("ceil(N/256)"), 4);                       // 1000/256 = 3.9
  EXPECT_EQ(value("ceil(N/256)", {{"N", 1024}}), 4);
  EXPECT_EQ(value("ceil(N/256)", {{"N", 1025}}), 5);
  EXPECT_EQ(value("floor(N/256)"), 3);
  EXPECT_EQ(value("M*K/2 + M*K/32"), 16384 + 1024);        // FP4 elements and a scale byte per 32
  EXPECT_EQ(value("N/8"), 125);                            // exact: a whole quotient
  EXPECT_EQ(value("2*3+4"), 10);
  EXPECT_EQ(value("2*(3+4)"), 14);
  EXPECT_EQ(value("1+2<<3"), 24);                          // shifts bind looser than sums, as in C
  EXPECT_EQ(value("K>>3"), 16);
  EXPECT_EQ(value("-2*3"), -6);
  EXPECT_EQ(value("- -5"), 5);
  EXPECT_EQ(value("7%3"), 1);
  EXPECT_EQ(value("-7%3"), -1);                            // the sign of the dividend, as in C
  EXPECT_EQ(value("max(1, K/4096)"), 1);                   // K/4096 = 1/32
  EXPECT_EQ(value("min(M, N, K)"), 128);
  EXPECT_EQ(value("log2(K)"), 7);
  EXPECT_EQ(value("ceil(N/3)*3 - N"), 2);
  EXPECT_EQ(value("N/3*3"), 1000);                         // exact rationals: no rounding in between
  EXPECT_EQ(value("ceil(-N/256)"), -3);
  EXPECT_EQ(value("ceil(K / (ceil((K>>1)/256)*256))"), 1);  // aiter's split-K grid, log2_k_split = 1
  const LaunchExpression e = LaunchExpression::parse("ceil(N / BLOCK_N) * max(M, N)");
  EXPECT_EQ(e.names(), (std::vector<std::string>{"BLOCK_N", "M", "N"}));
  EXPECT_EQ(e.text(), "ceil(N / BLOCK_N) * max(M, N)");
  const Exact x = LaunchExpression::parse("N/256").evaluate(kShape);
  EXPECT_EQ(x.num, 125);
  EXPECT_EQ(x.den, 32);
}

TEST(LaunchExpression, ErrorsNameTheColumnAndTheCause) {
  EXPECT_EQ(error("ceil(N/25"), "column 10: expected ',' or ')', found the end");
  EXPECT_EQ(error("N +"), "column 4: expected a number, a name or '(', found the end");
  EXPECT_EQ(error("N ) "), "column 3: expected an operator or the end, found ')'");
  EXPECT_EQ(error("2 ** 3"), "column 4: expected a number, a name or '(', found '*'");
  EXPECT_EQ(error("sqrt(N)"), "column 1: no function 'sqrt' (there are ceil, floor, log2, max, min)");
  EXPECT_EQ(error("ceil(N, M)"), "column 1: ceil takes one value");
  EXPECT_EQ(error("Q*2"), "unknown name 'Q' (the shape has: K, M, N)");
  EXPECT_EQ(error("Q", {}), "unknown name 'Q' (the shape has: nothing)");
  EXPECT_EQ(error("N/(K-128)"), "division by zero");
  EXPECT_EQ(error("N % 0"), "division by zero");
  EXPECT_EQ(error("N/3"), "'N/3' is 1000/3, not a whole number");
  EXPECT_EQ(error("(N/3) % 2"), "% needs whole numbers, not 1000/3");
  EXPECT_EQ(error("1 << 63"), "<< by 63: shifts go from 0 to 62");
  EXPECT_EQ(error("log2(N)"), "log2 of 1000: not a power of two");
  EXPECT_EQ(error("4611686018427387904 * 2"), "a product goes beyond 2^62");
  EXPECT_EQ(error("9999999999999999999"), "column 1: a number beyond 2^62");
  EXPECT_EQ(error(std::string(100, '(') + "1" + std::string(100, ')')), "column 66: nested deeper than 64");
  EXPECT_EQ(error(std::string(2000, '1')), "longer than 1024 characters");
  EXPECT_EQ(error(""), "column 1: expected a number, a name or '(', found the end");
}

// Random expressions of + - * over small numbers and names, with ceil and
// floor of quotients, against the same computed with int64 directly.
TEST(LaunchExpression, RandomExpressionsAgreeWithDirectArithmetic) {
  std::mt19937_64 rng(2026);
  const std::map<std::string, std::int64_t> shape{{"a", 7}, {"b", 96}, {"c", 1000}};
  std::function<std::pair<std::string, std::int64_t>(int)> gen = [&](int depth) -> std::pair<std::string, std::int64_t> {
    const int pick = depth > 3 ? static_cast<int>(rng() % 2) : static_cast<int>(rng() % 7);
    if (pick == 0) {
      const std::int64_t v = static_cast<std::int64_t>(rng() % 50);
      return {std::to_string(v), v};
    }
    if (pick == 1) {
      static const char* const names[] = {"a", "b", "c"};
      const char* n = names[rng() % 3];
      return {n, shape.at(n)};
    }
    auto [x, xv] = gen(depth + 1);
    auto [y, yv] = gen(depth + 1);
    switch (pick) {
      case 2: return {"(" + x + " + " + y + ")", xv + yv};
      case 3: return {"(" + x + " - " + y + ")", xv - yv};
      case 4: return {"(" + x + " * " + y + ")", xv * yv};
      case 5: {
        const std::int64_t d = 1 + static_cast<std::int64_t>(rng() % 9);
        return {"ceil(" + x + " / " + std::to_string(d) + ")",
                static_cast<std::int64_t>(std::ceil(static_cast<double>(xv) / static_cast<double>(d)))};
      }
      default: {
        const std::int64_t d = 1 + static_cast<std::int64_t>(rng() % 9);
        return {"floor(" + x + " / " + std::to_string(d) + ")",
                static_cast<std::int64_t>(std::floor(static_cast<double>(xv) / static_cast<double>(d)))};
      }
    }
  };
  for (int i = 0; i < 5000; ++i) {
    const auto [text, want] = gen(0);
    ASSERT_EQ(LaunchExpression::parse(text).whole(shape), want) << text;
  }
}

// A profiled grid solved for a problem dimension (sim --like of a code
// object): the ranges worked by hand.
TEST(LaunchExpression, SolvedForTheValuesThatGiveAGrid) {
  using Range = std::optional<std::pair<std::int64_t, std::int64_t>>;
  const auto solve = [](const std::string& text, const std::string& name, std::int64_t target) {
    return solve_nondecreasing(LaunchExpression::parse(text), name, {{"TILE_N", 128}, {"M", 512}}, target);
  };
  EXPECT_EQ(solve("N/TILE_N", "N", 32), Range({4096, 4096}));         // exact division: one N
  EXPECT_EQ(solve("ceil(N/256)", "N", 32), Range({7937, 8192}));      // 31*256+1 .. 32*256
  EXPECT_EQ(solve("ceil(M*N/65536)", "N", 3), Range({257, 384}));     // M=512: 128 N per workgroup
  EXPECT_EQ(solve("max(1, K/4096)", "K", 1), Range({1, 4096}));
  EXPECT_EQ(solve("N/TILE_N", "N", 0), Range());                      // no N >= 1 gives 0
  EXPECT_EQ(solve("ceil(N/256)*2", "N", 3), Range());                 // only even grids
  EXPECT_EQ(solve("N*N*N*N", "N", 16), Range({2, 2}));                // overflow above counts as above
  EXPECT_EQ(solve("N/TILE_N", "N", std::int64_t{1} << 40), Range());  // beyond 2^40 N
}

// Property: for random monotone grids ceil(N/T)*a + b, every value in the
// range gives the target, and the neighbours outside it do not.
TEST(LaunchExpression, SolvedRangesAreExact) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const std::int64_t tile = 1 + static_cast<std::int64_t>(rng() % 512), a = 1 + static_cast<std::int64_t>(rng() % 3),
                       b = static_cast<std::int64_t>(rng() % 4), n = 1 + static_cast<std::int64_t>(rng() % 100000);
    const std::string text = "ceil(N/" + std::to_string(tile) + ")*" + std::to_string(a) + "+" + std::to_string(b);
    const LaunchExpression e = LaunchExpression::parse(text);
    const std::int64_t target = value(text, {{"N", n}});
    const auto range = solve_nondecreasing(e, "N", {}, target);
    ASSERT_TRUE(range) << text << " = " << target;
    EXPECT_LE(range->first, n) << text;
    EXPECT_GE(range->second, n) << text;
    EXPECT_EQ(range->second - range->first + 1, tile) << text;  // one ceil step
    EXPECT_EQ(value(text, {{"N", range->first}}), target);
    EXPECT_EQ(value(text, {{"N", range->second}}), target);
    if (range->first > 1) {
      EXPECT_NE(value(text, {{"N", range->first - 1}}), target);
    }
    EXPECT_NE(value(text, {{"N", range->second + 1}}), target);
  }
}

}  // namespace
}  // namespace tilelab::kernels
