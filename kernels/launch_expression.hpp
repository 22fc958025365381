// Expressions of a problem's shape, as a launch template writes its grid,
// buffer sizes and arguments: "ceil(N/256)", "M*K/2 + M*K/32", "K >> 1",
// "max(1, K/4096)".  A small grammar, parsed here (never evaluated by a
// general-purpose interpreter), with exact arithmetic:
//
//   expr    := shift
//   shift   := sum (("<<" | ">>") sum)*
//   sum     := product (("+" | "-") product)*
//   product := unary (("*" | "/" | "%") unary)*
//   unary   := ("-" | "+") unary | primary
//   primary := integer | name | name "(" expr ("," expr)* ")" | "(" expr ")"
//
// Values are exact rationals: "/" divides exactly (N/256 is a fraction until
// ceil or floor makes it whole), "%", "<<" and ">>" take whole numbers only.
// Functions: ceil(x), floor(x), min(x, ...), max(x, ...), log2(x) (x a power
// of two).  Names are the shape's dimensions (M, N, K, ...).
//
// Guarantee: parse() returns an expression or throws LaunchExpressionError
// naming the column and what was expected; evaluate() returns the exact value
// or throws naming the cause (an unknown name and the names there are,
// division by zero, a value beyond 2^62, a fraction where a whole number is
// needed).  Neither reads anything but its arguments.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tilelab::kernels {

struct LaunchExpressionError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A rational number num/den in lowest terms, den > 0.
struct Exact {
  std::int64_t num = 0, den = 1;
  bool whole() const { return den == 1; }
};

class LaunchExpression {
 public:
  // Longest text accepted, and deepest nesting (bounds the parser's stack).
  static constexpr std::size_t kMaxLength = 1024;
  static constexpr int kMaxDepth = 64;

  static LaunchExpression parse(std::string_view text);
  Exact evaluate(const std::map<std::string, std::int64_t>& shape) const;
  // The value, which must be a whole number ("... is 4095/2, not a whole number").
  std::int64_t whole(const std::map<std::string, std::int64_t>& shape) const;
  const std::string& text() const { return text_; }
  // The names it reads, sorted, each once.
  std::vector<std::string> names() const;

  struct Node;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
};

// The whole values v of `name` in [1, 2^40] at which `e` (its other names
// from `shape`) equals `target`, as [first, last]; nullopt when none does.
// Guarantee, for an expression that does not decrease as `name` grows (a
// grid's "N/TILE_N", "ceil(N/256)"): every v in the range gives `target`
// and no v outside it does.  Found by bisection; a value that cannot be
// evaluated (beyond 2^62) counts as above the target.
std::optional<std::pair<std::int64_t, std::int64_t>> solve_nondecreasing(const LaunchExpression& e,
                                                                        const std::string& name,
                                                                        std::map<std::string, std::int64_t> shape,
                                                                        std::int64_t target);

}  // namespace tilelab::kernels
