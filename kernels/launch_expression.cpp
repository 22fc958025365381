#include "kernels/launch_expression.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <set>

namespace tilelab::kernels {

struct LaunchExpression::Node {
  enum class Kind { number, name, negate, add, subtract, multiply, divide, modulo, shift_left, shift_right, call };
  Kind kind = Kind::number;
  std::int64_t value = 0;
  std::string name;  // a name, or a function's
  std::vector<std::shared_ptr<const Node>> args;
};

namespace {

using Node = LaunchExpression::Node;
using Kind = Node::Kind;
using Ptr = std::shared_ptr<const Node>;

constexpr std::int64_t kLimit = std::int64_t{1} << 62;

[[noreturn]] void fail(const std::string& what) { throw LaunchExpressionError(what); }

// ---- exact arithmetic --------------------------------------------------------

Exact make(__int128 num, __int128 den, const std::string& op) {
  if (den == 0) fail("division by zero");
  if (den < 0) num = -num, den = -den;
  __int128 a = num < 0 ? -num : num, b = den;
  while (b) {
    const __int128 t = a % b;
    a = b, b = t;
  }
  if (a > 1) num /= a, den /= a;
  if (num > kLimit || num < -kLimit || den > kLimit) fail(op + " goes beyond 2^62");
  return {static_cast<std::int64_t>(num), static_cast<std::int64_t>(den)};
}

Exact add(Exact x, Exact y, int sign) {
  return make(static_cast<__int128>(x.num) * y.den + sign * static_cast<__int128>(y.num) * x.den,
              static_cast<__int128>(x.den) * y.den, sign > 0 ? "a sum" : "a difference");
}
Exact multiply(Exact x, Exact y) {
  return make(static_cast<__int128>(x.num) * y.num, static_cast<__int128>(x.den) * y.den, "a product");
}
Exact divide(Exact x, Exact y) {
  if (y.num == 0) fail("division by zero");
  return make(static_cast<__int128>(x.num) * y.den, static_cast<__int128>(x.den) * y.num, "a quotient");
}
std::int64_t floor_of(Exact x) { return x.num >= 0 ? x.num / x.den : -((-x.num + x.den - 1) / x.den); }
std::int64_t ceil_of(Exact x) { return -floor_of({-x.num, x.den}); }
int compare(Exact x, Exact y) {
  const __int128 l = static_cast<__int128>(x.num) * y.den, r = static_cast<__int128>(y.num) * x.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

std::string shown(Exact x) { return x.whole() ? std::to_string(x.num) : std::to_string(x.num) + "/" + std::to_string(x.den); }

std::int64_t whole_operand(Exact x, const std::string& op) {
  if (!x.whole()) fail(op + " needs whole numbers, not " + shown(x));
  return x.num;
}

// ---- parsing -----------------------------------------------------------------

class Parser {
 public:
  explicit Parser(std::string_view t) : t_(t) {}

  Ptr whole_text() {
    Ptr e = shift(0);
    skip();
    if (at_ < t_.size()) expected("an operator or the end");
    return e;
  }

 private:
  [[noreturn]] void expected(const std::string& what) {
    fail("column " + std::to_string(at_ + 1) + ": expected " + what +
         (at_ < t_.size() ? std::string(", found '") + t_[at_] + "'" : ", found the end"));
  }
  void skip() {
    while (at_ < t_.size() && (t_[at_] == ' ' || t_[at_] == '\t')) ++at_;
  }
  bool eat(std::string_view op) {
    skip();
    if (t_.substr(at_, op.size()) != op) return false;
    at_ += op.size();
    return true;
  }
  void deeper(int depth) {
    if (depth > LaunchExpression::kMaxDepth)
      fail("column " + std::to_string(at_ + 1) + ": nested deeper than " + std::to_string(LaunchExpression::kMaxDepth));
  }
  static Ptr node(Kind k, std::vector<Ptr> args) {
    auto n = std::make_shared<Node>();
    n->kind = k;
    n->args = std::move(args);
    return n;
  }

  Ptr shift(int depth) {
    Ptr l = sum(depth);
    for (;;) {
      if (eat("<<")) l = node(Kind::shift_left, {l, sum(depth)});
      else if (eat(">>")) l = node(Kind::shift_right, {l, sum(depth)});
      else return l;
    }
  }
  Ptr sum(int depth) {
    Ptr l = product(depth);
    for (;;) {
      if (eat("+")) l = node(Kind::add, {l, product(depth)});
      else if (eat("-")) l = node(Kind::subtract, {l, product(depth)});
      else return l;
    }
  }
  Ptr product(int depth) {
    Ptr l = unary(depth);
    for (;;) {
      skip();
      // "<<"/">>" are the shift's; a lone '<' or '>' is not an operator here.
      if (eat("*")) l = node(Kind::multiply, {l, unary(depth)});
      else if (eat("/")) l = node(Kind::divide, {l, unary(depth)});
      else if (eat("%")) l = node(Kind::modulo, {l, unary(depth)});
      else return l;
    }
  }
  Ptr unary(int depth) {
    deeper(depth);
    if (eat("-")) return node(Kind::negate, {unary(depth + 1)});
    if (eat("+")) return unary(depth + 1);
    return primary(depth);
  }
  Ptr primary(int depth) {
    skip();
    if (at_ >= t_.size()) expected("a number, a name or '('");
    const char c = t_[at_];
    if (std::isdigit(static_cast<unsigned char>(c))) return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name_or_call(depth);
    if (eat("(")) {
      Ptr e = shift(depth + 1);
      if (!eat(")")) expected("')'");
      return e;
    }
    expected("a number, a name or '('");
  }
  Ptr number() {
    const std::size_t first = at_;
    std::int64_t v = 0;
    while (at_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[at_]))) {
      const int digit = t_[at_++] - '0';
      if (v > (kLimit - digit) / 10) fail("column " + std::to_string(first + 1) + ": a number beyond 2^62");
      v = v * 10 + digit;
    }
    auto n = std::make_shared<Node>();
    n->value = v;
    return n;
  }
  Ptr name_or_call(int depth) {
    const std::size_t first = at_;
    while (at_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[at_])) || t_[at_] == '_')) ++at_;
    auto n = std::make_shared<Node>();
    n->name = std::string(t_.substr(first, at_ - first));
    if (!eat("(")) {
      n->kind = Kind::name;
      return n;
    }
    static const std::set<std::string> kFunctions = {"ceil", "floor", "min", "max", "log2"};
    if (!kFunctions.count(n->name))
      fail("column " + std::to_string(first + 1) + ": no function '" + n->name + "' (there are ceil, floor, log2, max, min)");
    n->kind = Kind::call;
    do n->args.push_back(shift(depth + 1));
    while (eat(","));
    if (!eat(")")) expected("',' or ')'");
    const bool one = n->name != "min" && n->name != "max";
    if (one && n->args.size() != 1) fail("column " + std::to_string(first + 1) + ": " + n->name + " takes one value");
    return n;
  }

  std::string_view t_;
  std::size_t at_ = 0;
};

// ---- evaluation ----------------------------------------------------------------

Exact evaluate_node(const Node& n, const std::map<std::string, std::int64_t>& shape) {
  auto arg = [&](std::size_t i) { return evaluate_node(*n.args[i], shape); };
  switch (n.kind) {
    case Kind::number: return {n.value, 1};
    case Kind::name: {
      const auto it = shape.find(n.name);
      if (it == shape.end()) {
        std::string names;
        for (const auto& [k, v] : shape) names += (names.empty() ? "" : ", ") + k;
        fail("unknown name '" + n.name + "' (the shape has: " + (names.empty() ? "nothing" : names) + ")");
      }
      return make(it->second, 1, "the value of " + n.name);
    }
    case Kind::negate: { const Exact x = arg(0); return {-x.num, x.den}; }
    case Kind::add: return add(arg(0), arg(1), 1);
    case Kind::subtract: return add(arg(0), arg(1), -1);
    case Kind::multiply: return multiply(arg(0), arg(1));
    case Kind::divide: return divide(arg(0), arg(1));
    case Kind::modulo: {
      const std::int64_t a = whole_operand(arg(0), "%"), b = whole_operand(arg(1), "%");
      if (b == 0) fail("division by zero");
      return {a % b, 1};
    }
    case Kind::shift_left:
    case Kind::shift_right: {
      const std::string op = n.kind == Kind::shift_left ? "<<" : ">>";
      const std::int64_t a = whole_operand(arg(0), op), b = whole_operand(arg(1), op);
      if (b < 0 || b > 62) fail(op + " by " + std::to_string(b) + ": shifts go from 0 to 62");
      if (n.kind == Kind::shift_right) return {a >> b, 1};
      return make(static_cast<__int128>(a) << b, 1, "a shift");
    }
    case Kind::call: {
      if (n.name == "ceil") return {ceil_of(arg(0)), 1};
      if (n.name == "floor") return {floor_of(arg(0)), 1};
      if (n.name == "log2") {
        const std::int64_t a = whole_operand(arg(0), "log2");
        if (a <= 0 || (a & (a - 1))) fail("log2 of " + std::to_string(a) + ": not a power of two");
        int k = 0;
        while ((std::int64_t{1} << k) != a) ++k;
        return {k, 1};
      }
      Exact best = arg(0);
      for (std::size_t i = 1; i < n.args.size(); ++i) {
        const Exact x = arg(i);
        if ((n.name == "min") == (compare(x, best) < 0)) best = x;
      }
      return best;
    }
  }
  fail("unreachable expression node");
}

void collect(const Node& n, std::set<std::string>& out) {
  if (n.kind == Kind::name) out.insert(n.name);
  for (const Ptr& a : n.args) collect(*a, out);
}

}  // namespace

LaunchExpression LaunchExpression::parse(std::string_view text) {
  if (text.size() > kMaxLength) fail("longer than " + std::to_string(kMaxLength) + " characters");
  LaunchExpression e;
  e.text_ = std::string(text);
  e.root_ = Parser(text).whole_text();
  return e;
}

Exact LaunchExpression::evaluate(const std::map<std::string, std::int64_t>& shape) const {
  return evaluate_node(*root_, shape);
}

std::int64_t LaunchExpression::whole(const std::map<std::string, std::int64_t>& shape) const {
  const Exact x = evaluate(shape);
  if (!x.whole()) fail("'" + text_ + "' is " + shown(x) + ", not a whole number");
  return x.num;
}

std::vector<std::string> LaunchExpression::names() const {
  std::set<std::string> s;
  collect(*root_, s);
  return {s.begin(), s.end()};
}

std::optional<std::pair<std::int64_t, std::int64_t>> solve_nondecreasing(const LaunchExpression& e,
                                                                        const std::string& name,
                                                                        std::map<std::string, std::int64_t> shape,
                                                                        std::int64_t target) {
  // -1, 0, 1: e(v) below, at, above the target (above when it cannot be evaluated)
  const auto side = [&](std::int64_t v) {
    shape[name] = v;
    try {
      const Exact x = e.evaluate(shape);
      const __int128 lhs = x.num, rhs = static_cast<__int128>(target) * x.den;
      return lhs < rhs ? -1 : lhs > rhs ? 1 : 0;
    } catch (const LaunchExpressionError&) {
      return 1;
    }
  };
  // the first v in [1, 2^40 + 1] whose side is at least `at_least`
  const auto first = [&](int at_least) {
    std::int64_t lo = 1, hi = (std::int64_t{1} << 40) + 1;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (side(mid) >= at_least) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  const std::int64_t from = first(0), to = first(1) - 1;
  if (from > to || side(from) != 0 || side(to) != 0) return std::nullopt;
  return std::pair{from, to};
}

}  // namespace tilelab::kernels
