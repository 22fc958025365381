#include "layouts/expr.hpp"

#include <cctype>
#include <functional>
#include <map>

#include "layouts/tv_layout.hpp"

namespace tilelab {

// ===========================================================================
// Reading: text -> Expr
// ===========================================================================

namespace {

bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {
    if (text.size() > static_cast<std::size_t>(kMaxExprLength))
      throw ExprError("expression longer than " + std::to_string(kMaxExprLength) + " characters", 1);
  }

  std::unique_ptr<Expr> whole() {
    auto e = expr();
    skip_ws();
    if (pos_ < s_.size()) fail("unexpected " + describe_here() + " after the expression");
    return e;
  }

 private:
  // expr := term ('o' term)*
  std::unique_ptr<Expr> expr() {
    Nest nest(*this);
    skip_ws();
    int col = column();
    auto first = term();
    if (!at_compose_operator()) return first;
    auto node = make(Expr::Kind::kCompose, col);
    node->children.push_back(std::move(first));
    while (at_compose_operator()) {
      ++pos_;  // 'o'
      skip_ws();
      node->children.push_back(term());
    }
    return node;
  }

  std::unique_ptr<Expr> term() {
    skip_ws();
    int col = column();
    if (pos_ >= s_.size()) fail("unexpected end of expression, expected a value");
    char c = s_[pos_];
    if (c == '(' || c == '-' || std::isdigit(static_cast<unsigned char>(c)) || is_underscore_token()) {
      auto node = make(Expr::Kind::kTuple, col);
      node->tuple = tuple();
      skip_ws();
      if (peek() == ':') {
        ++pos_;
        int stride_col = (skip_ws(), column());
        node->kind = Expr::Kind::kLayout;
        node->stride = tuple();
        check_layout(*node, stride_col);
      }
      return node;
    }
    if (c == '<') return tiler(col);
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::string name = identifier();
      skip_ws();
      if (name == "Sw" && peek() == '<') return swizzle(col);
      if (peek() != '(') {
        throw ExprError("unknown name '" + name + "' (expected a function call such as " + name + "(...))", col);
      }
      ++pos_;
      auto node = make(Expr::Kind::kCall, col);
      node->name = name;
      skip_ws();
      if (peek() == ')') {
        ++pos_;
        return node;
      }
      for (;;) {
        node->children.push_back(expr());
        skip_ws();
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        expect(')', "to close the call of " + name);
        return node;
      }
    }
    fail("unexpected " + describe_here() + ", expected a tuple, layout, tiler, swizzle or call");
  }

  // tuple := int | '_' | '(' [tuple (',' tuple)*] ')'
  IntTuple tuple() {
    Nest nest(*this);
    skip_ws();
    if (is_underscore_token()) {
      ++pos_;
      return IntTuple::underscore();
    }
    if (peek() != '(') return integer();
    ++pos_;
    IntTuple t = IntTuple::empty_tuple();
    skip_ws();
    if (peek() == ')') {
      ++pos_;
      return t;
    }
    for (;;) {
      t.push_back(tuple());
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect(')', "to close the tuple");
      return t;
    }
  }

  Int integer() {
    skip_ws();
    int col = column();
    bool negative = false;
    if (peek() == '-') {
      negative = true;
      ++pos_;
    }
    if (!std::isdigit(static_cast<unsigned char>(peek()))) fail("unexpected " + describe_here() + ", expected an integer");
    Int v = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) {
      v = v * 10 + (s_[pos_++] - '0');
      if (v > (Int{1} << 52)) throw ExprError("integer too large (limit 2^52)", col);
    }
    return negative ? -v : v;
  }

  std::unique_ptr<Expr> tiler(int col) {
    Nest nest(*this);
    ++pos_;  // '<'
    auto node = make(Expr::Kind::kTiler, col);
    skip_ws();
    if (peek() == '>') {  // <>: the tiler of no modes (what `<2,()>`'s second mode prints as)
      ++pos_;
      return node;
    }
    for (;;) {
      node->children.push_back(expr());
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect('>', "to close the tiler");
      return node;
    }
  }

  std::unique_ptr<Expr> swizzle(int col) {
    ++pos_;  // '<'
    int b = static_cast<int>(small_int());
    expect(',', "in Sw<B,M,S>");
    int m = static_cast<int>(small_int());
    expect(',', "in Sw<B,M,S>");
    int sh = static_cast<int>(small_int());
    expect('>', "to close Sw<B,M,S>");
    auto node = make(Expr::Kind::kSwizzle, col);
    try {
      node->swizzle = Swizzle(b, m, sh);
    } catch (const LayoutError& e) {
      throw ExprError(e.what(), col);
    }
    return node;
  }

  Int small_int() {
    skip_ws();
    int col = column();
    Int v = integer();
    if (v < -64 || v > 64) throw ExprError("swizzle parameter " + std::to_string(v) + " out of range [-64,64]", col);
    return v;
  }

  void check_layout(const Expr& node, int stride_col) {
    try {
      Layout(node.tuple, node.stride);
    } catch (const LayoutError& e) {
      // Congruence problems show at the stride; anything else at the layout's start.
      throw ExprError(e.what(), std::string(e.what()).find("congruent") != std::string::npos ? stride_col : node.column);
    }
  }

  std::string identifier() {
    std::size_t start = pos_;
    while (pos_ < s_.size() && is_ident_char(s_[pos_])) ++pos_;
    return s_.substr(start, pos_ - start);
  }

  bool is_underscore_token() const {
    return peek() == '_' && (pos_ + 1 >= s_.size() || !is_ident_char(s_[pos_ + 1]));
  }

  bool at_compose_operator() {
    skip_ws();
    return peek() == 'o' && (pos_ + 1 >= s_.size() || !std::isalpha(static_cast<unsigned char>(s_[pos_ + 1])));
  }

  void expect(char c, const std::string& why) {
    skip_ws();
    if (peek() != c) fail("expected '" + std::string(1, c) + "' " + why + ", found " + describe_here());
    ++pos_;
  }

  std::string describe_here() const {
    if (pos_ >= s_.size()) return "end of expression";
    unsigned char c = static_cast<unsigned char>(s_[pos_]);
    if (std::isprint(c)) return "'" + std::string(1, static_cast<char>(c)) + "'";
    return "byte 0x" + std::string(1, "0123456789abcdef"[c >> 4]) + std::string(1, "0123456789abcdef"[c & 15]);
  }

  [[noreturn]] void fail(const std::string& what) { throw ExprError(what, column()); }

  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip_ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  int column() const { return static_cast<int>(pos_) + 1; }
  std::unique_ptr<Expr> make(Expr::Kind k, int col) {
    auto e = std::make_unique<Expr>();
    e->kind = k;
    e->column = col;
    return e;
  }

  // Guards recursion depth.
  struct Nest {
    explicit Nest(Parser& p) : p_(p) {
      if (++p_.depth_ > kMaxNesting)
        throw ExprError("nesting deeper than " + std::to_string(kMaxNesting) + " levels", p_.column());
    }
    ~Nest() { --p_.depth_; }
    Parser& p_;
  };

  const std::string& s_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

std::unique_ptr<Expr> parse(const std::string& text) { return Parser(text).whole(); }

// ===========================================================================
// Evaluation: Expr -> Value
// ===========================================================================

namespace {

const char* kind_name(const Value& v) {
  switch (v.index()) {
    case 0: return std::get<IntTuple>(v).is_int() ? "an integer" : "a tuple";
    case 1: return "a layout";
    case 2: return "a tiler";
    case 3: return "a swizzle";
    default: return "a swizzled layout";
  }
}

// The arguments of one call, with conversions that name the argument on failure.
class Args {
 public:
  Args(const Expr& call, std::vector<Value> values) : call_(call), v_(std::move(values)) {}

  std::size_t count() const { return v_.size(); }
  const Value& raw(std::size_t i) const { return v_[i]; }
  bool is_composed(std::size_t i) const { return std::holds_alternative<ComposedLayout>(v_[i]); }
  bool is_tuple(std::size_t i) const { return std::holds_alternative<IntTuple>(v_[i]); }

  void arity(std::size_t lo, std::size_t hi) const {
    if (v_.size() < lo || v_.size() > hi) {
      std::string want = lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
      throw ExprError(call_.name + " takes " + want + " argument" + (hi == 1 ? "" : "s") + ", got " +
                          std::to_string(v_.size()),
                      call_.column);
    }
  }

  // A layout; a shape stands for its compact column-major layout.
  Layout layout(std::size_t i) const {
    if (auto* l = std::get_if<Layout>(&v_[i])) return *l;
    if (auto* t = std::get_if<IntTuple>(&v_[i])) {
      if (t->has_underscore()) bad(i, "a layout");
      return guarded(i, [&] { return Layout(*t); });
    }
    bad(i, "a layout");
  }
  const ComposedLayout& composed(std::size_t i) const { return std::get<ComposedLayout>(v_[i]); }
  Tiler tiler(std::size_t i) const {
    if (auto* t = std::get_if<Tiler>(&v_[i])) return *t;
    if (auto* l = std::get_if<Layout>(&v_[i])) return *l;
    if (auto* t = std::get_if<IntTuple>(&v_[i])) return guarded(i, [&] { return Tiler::from_shape(*t); });
    bad(i, "a tiler, layout or shape");
  }
  IntTuple tuple(std::size_t i) const {
    if (auto* t = std::get_if<IntTuple>(&v_[i])) return *t;
    bad(i, "an integer or tuple");
  }
  Int integer(std::size_t i) const {
    IntTuple t = tuple(i);
    if (!t.is_int()) bad(i, "an integer");
    return t.value();
  }
  int small(std::size_t i) const {
    Int v = integer(i);
    if (v < -(1 << 20) || v > (1 << 20)) throw ExprError(call_.name + ": argument " + std::to_string(i + 1) + " out of range", col(i));
    return static_cast<int>(v);
  }

 private:
  int col(std::size_t i) const { return call_.children[i]->column; }
  [[noreturn]] void bad(std::size_t i, const char* want) const {
    throw ExprError(call_.name + ": argument " + std::to_string(i + 1) + " must be " + want + ", got " +
                        kind_name(v_[i]),
                    col(i));
  }
  template <class F>
  auto guarded(std::size_t i, F f) const -> decltype(f()) {
    try {
      return f();
    } catch (const LayoutError& e) {
      throw ExprError(call_.name + ": argument " + std::to_string(i + 1) + ": " + e.what(), col(i));
    }
  }

  const Expr& call_;
  std::vector<Value> v_;
};

using Handler = std::function<Value(const Args&)>;

struct Function {
  std::string signature;
  Handler run;
};

// A composed layout passes through ops that act on its inner layout.
Value on_inner(const Args& a, const std::function<Layout(const Layout&)>& f) {
  if (a.is_composed(0)) return with_layout(a.composed(0), f(a.composed(0).layout));
  return f(a.layout(0));
}

Value eval_at(const Args& a) {
  a.arity(2, 2);
  IntTuple at = a.tuple(1);
  if (auto* sw = std::get_if<Swizzle>(&a.raw(0))) {
    if (!at.is_int()) throw LayoutError("a swizzle is evaluated at an integer offset");
    return IntTuple((*sw)(at.value()));
  }
  if (a.is_composed(0)) {
    const ComposedLayout& c = a.composed(0);
    if (!at.has_underscore()) return IntTuple(c(at));
    // Slicing moves the sliced-away part into the offset (CuTe slice_and_offset).
    return ComposedLayout{c.swizzle, checked_add(c.offset, c.layout(at)), slice(at, c.layout)};
  }
  Layout l = a.layout(0);
  if (at.has_underscore()) return slice(at, l);
  return IntTuple(l(at));
}

Value size_of(const Args& a) {
  a.arity(1, 1);
  if (a.is_composed(0)) return IntTuple(size(a.composed(0).layout));
  if (a.is_tuple(0)) return IntTuple(size(a.tuple(0)));
  return IntTuple(size(a.layout(0)));
}

std::vector<int> int_list(const Args& a, std::size_t from) {
  std::vector<int> r;
  for (std::size_t i = from; i < a.count(); ++i) r.push_back(a.small(i));
  return r;
}

using DivideOp = Layout (*)(const Layout&, const Tiler&);

Function tiler_op(const char* sig, DivideOp op, bool composed_ok) {
  return {sig, [op, composed_ok](const Args& a) -> Value {
            a.arity(2, 2);
            Tiler t = a.tiler(1);
            if (composed_ok) return on_inner(a, [&](const Layout& l) { return op(l, t); });
            return op(a.layout(0), t);
          }};
}

const std::map<std::string, Function>& functions() {
  static const std::map<std::string, Function> table = [] {
    std::map<std::string, Function> f;
    f["coalesce"] = {"coalesce(L[, profile])", [](const Args& a) -> Value {
                       a.arity(1, 2);
                       return a.count() == 1 ? coalesce(a.layout(0)) : coalesce(a.layout(0), a.tuple(1));
                     }};
    f["filter"] = {"filter(L[, profile])", [](const Args& a) -> Value {
                     a.arity(1, 2);
                     return a.count() == 1 ? filter(a.layout(0)) : filter(a.layout(0), a.tuple(1));
                   }};
    f["composition"] = tiler_op("composition(L, B)  (B a layout, tiler or shape)",
                                static_cast<DivideOp>(&composition), true);
    f["complement"] = {"complement(L[, cotarget])", [](const Args& a) -> Value {
                         a.arity(1, 2);
                         return a.count() == 1 ? complement(a.layout(0)) : complement(a.layout(0), size(a.tuple(1)));
                       }};
    f["right_inverse"] = {"right_inverse(L)", [](const Args& a) -> Value {
                            a.arity(1, 1);
                            return right_inverse(a.layout(0));
                          }};
    f["left_inverse"] = {"left_inverse(L)", [](const Args& a) -> Value {
                           a.arity(1, 1);
                           return left_inverse(a.layout(0));
                         }};
    f["logical_divide"] = tiler_op("logical_divide(L, T)", &logical_divide, true);
    f["zipped_divide"] = tiler_op("zipped_divide(L, T)", &zipped_divide, true);
    f["tiled_divide"] = tiler_op("tiled_divide(L, T)", &tiled_divide, true);
    f["flat_divide"] = tiler_op("flat_divide(L, T)", &flat_divide, true);
    f["logical_product"] = tiler_op("logical_product(L, T)", &logical_product, false);
    f["zipped_product"] = tiler_op("zipped_product(L, T)", &zipped_product, false);
    f["tiled_product"] = tiler_op("tiled_product(L, T)", &tiled_product, false);
    f["flat_product"] = tiler_op("flat_product(L, T)", &flat_product, false);
    f["blocked_product"] = {"blocked_product(L, B)", [](const Args& a) -> Value {
                              a.arity(2, 2);
                              return blocked_product(a.layout(0), a.layout(1));
                            }};
    f["raked_product"] = {"raked_product(L, B)", [](const Args& a) -> Value {
                            a.arity(2, 2);
                            return raked_product(a.layout(0), a.layout(1));
                          }};
    f["tile_to_shape"] = {"tile_to_shape(L, shape[, order])", [](const Args& a) -> Value {
                            a.arity(2, 3);
                            if (a.count() == 2) return tile_to_shape(a.layout(0), a.tuple(1));
                            return tile_to_shape(a.layout(0), a.tuple(1), a.tuple(2));
                          }};
    f["make_ordered_layout"] = {"make_ordered_layout(shape, order)", [](const Args& a) -> Value {
                                  a.arity(2, 2);
                                  return make_ordered_layout(a.tuple(0), a.tuple(1));
                                }};
    f["make_layout"] = {"make_layout(shape[, stride])", [](const Args& a) -> Value {
                          a.arity(1, 2);
                          if (a.count() == 1) return Layout(a.tuple(0));
                          return Layout(a.tuple(0), a.tuple(1));
                        }};
    f["make_layout_tv"] = {"make_layout_tv(thr, val)  -> the (thread,value) layout", [](const Args& a) -> Value {
                             a.arity(2, 2);
                             return make_layout_tv(a.layout(0), a.layout(1)).tv;
                           }};
    f["size"] = {"size(L or tuple)", &size_of};
    f["cosize"] = {"cosize(L)", [](const Args& a) -> Value {
                     a.arity(1, 1);
                     return IntTuple(cosize(a.layout(0)));
                   }};
    f["rank"] = {"rank(L or tuple)", [](const Args& a) -> Value {
                   a.arity(1, 1);
                   if (a.is_composed(0)) return IntTuple(rank(a.composed(0).layout));
                   return IntTuple(a.is_tuple(0) ? a.tuple(0).rank() : rank(a.layout(0)));
                 }};
    f["depth"] = {"depth(L or tuple)", [](const Args& a) -> Value {
                    a.arity(1, 1);
                    if (a.is_composed(0)) return IntTuple(depth(a.composed(0).layout));
                    return IntTuple(a.is_tuple(0) ? depth(a.tuple(0)) : depth(a.layout(0)));
                  }};
    f["shape"] = {"shape(L)", [](const Args& a) -> Value {
                    a.arity(1, 1);
                    return a.is_composed(0) ? a.composed(0).layout.shape() : a.layout(0).shape();
                  }};
    f["stride"] = {"stride(L)", [](const Args& a) -> Value {
                     a.arity(1, 1);
                     return a.layout(0).stride();
                   }};
    f["get"] = {"get(L or tuple, i)", [](const Args& a) -> Value {
                  a.arity(2, 2);
                  if (a.is_tuple(0)) return a.tuple(0)[a.small(1)];
                  return get(a.layout(0), a.small(1));
                }};
    f["select"] = {"select(L, i, j, ...)", [](const Args& a) -> Value {
                     if (a.count() < 2) a.arity(2, 64);
                     return select(a.layout(0), int_list(a, 1));
                   }};
    f["group"] = {"group(L, begin, end)", [](const Args& a) -> Value {
                    a.arity(3, 3);
                    return group(a.layout(0), a.small(1), a.small(2));
                  }};
    f["append"] = {"append(L, mode)", [](const Args& a) -> Value {
                     a.arity(2, 2);
                     return append(a.layout(0), a.layout(1));
                   }};
    f["prepend"] = {"prepend(L, mode)", [](const Args& a) -> Value {
                      a.arity(2, 2);
                      return prepend(a.layout(0), a.layout(1));
                    }};
    f["flatten"] = {"flatten(L or tuple)", [](const Args& a) -> Value {
                      a.arity(1, 1);
                      if (a.is_tuple(0)) return flatten(a.tuple(0));
                      return flatten(a.layout(0));
                    }};
    f["eval"] = {"eval(L, i) | eval(L, (i,j)) | eval(L, (i,_)) slices", &eval_at};
    f["slice"] = {"slice(coord, L)", [](const Args& a) -> Value {
                    a.arity(2, 2);
                    return slice(a.tuple(0), a.layout(1));
                  }};
    f["dice"] = {"dice(coord, L)", [](const Args& a) -> Value {
                   a.arity(2, 2);
                   return dice(a.tuple(0), a.layout(1));
                 }};
    f["prefix_product"] = {"prefix_product(t)", [](const Args& a) -> Value {
                             a.arity(1, 1);
                             return prefix_product(a.tuple(0));
                           }};
    f["product_each"] = {"product_each(t)", [](const Args& a) -> Value {
                           a.arity(1, 1);
                           return product_each(a.tuple(0));
                         }};
    f["shape_div"] = {"shape_div(a, b)", [](const Args& a) -> Value {
                        a.arity(2, 2);
                        return shape_div(a.tuple(0), a.tuple(1));
                      }};
    f["ceil_div"] = {"ceil_div(a, b)", [](const Args& a) -> Value {
                       a.arity(2, 2);
                       return ceil_div(a.tuple(0), a.tuple(1));
                     }};
    f["idx2crd"] = {"idx2crd(i, shape)", [](const Args& a) -> Value {
                      a.arity(2, 2);
                      return idx2crd(a.integer(0), a.tuple(1));
                    }};
    f["crd2idx"] = {"crd2idx(coord, shape[, stride])", [](const Args& a) -> Value {
                      a.arity(2, 3);
                      IntTuple shape = a.tuple(1);
                      return IntTuple(crd2idx(a.tuple(0), shape, a.count() == 3 ? a.tuple(2) : prefix_product(shape)));
                    }};
    f["recast"] = {"recast(L, old_bits, new_bits)", [](const Args& a) -> Value {
                     a.arity(3, 3);
                     if (a.is_composed(0)) return recast(a.composed(0), a.small(1), a.small(2));
                     return recast(a.layout(0), a.small(1), a.small(2));
                   }};
    return f;
  }();
  return table;
}

Value evaluate_compose(const Expr& e) {
  std::vector<Value> ops;
  for (const auto& c : e.children) ops.push_back(evaluate(*c));
  auto fail = [&](std::size_t i) -> ExprError {
    return ExprError(std::string("cannot compose ") + kind_name(ops[i - 1]) + " with " + kind_name(ops[i]),
                     e.children[i]->column);
  };
  // Sw o [offset o] layout
  if (auto* sw = std::get_if<Swizzle>(&ops[0])) {
    std::size_t next = 1;
    Int offset = 0;
    if (ops.size() == 3) {
      auto* off = std::get_if<IntTuple>(&ops[1]);
      if (!off || !off->is_int()) throw fail(1);
      offset = off->value();
      next = 2;
    }
    if (ops.size() > 3) throw ExprError("a swizzled layout is Sw<B,M,S> o [offset o] layout", e.column);
    if (auto* l = std::get_if<Layout>(&ops[next])) return ComposedLayout{*sw, offset, *l};
    throw fail(next);
  }
  // L o B o C ... = composition, left to right
  Value acc = ops[0];
  for (std::size_t i = 1; i < ops.size(); ++i) {
    Tiler t = std::holds_alternative<Layout>(ops[i]) ? Tiler(std::get<Layout>(ops[i]))
              : std::holds_alternative<Tiler>(ops[i]) ? std::get<Tiler>(ops[i])
                                                       : throw fail(i);
    try {
      if (auto* c = std::get_if<ComposedLayout>(&acc)) acc = with_layout(*c, composition(c->layout, t));
      else if (auto* l = std::get_if<Layout>(&acc)) acc = composition(*l, t);
      else throw fail(i);
    } catch (const LayoutError& err) {
      throw ExprError(err.what(), e.children[i]->column);
    }
  }
  return acc;
}

}  // namespace

static Value evaluate_node(const Expr& e);

// Every failed precondition becomes an ExprError at the node that hit it.
Value evaluate(const Expr& e) {
  try {
    return evaluate_node(e);
  } catch (const LayoutError& err) {
    throw ExprError(err.what(), e.column);
  }
}

static Value evaluate_node(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::kTuple: return e.tuple;
    case Expr::Kind::kLayout: return Layout(e.tuple, e.stride);
    case Expr::Kind::kSwizzle: return e.swizzle;
    case Expr::Kind::kCompose: return evaluate_compose(e);
    case Expr::Kind::kTiler: {
      std::vector<Tiler> modes;
      for (const auto& c : e.children) {
        Value v = evaluate(*c);
        if (auto* t = std::get_if<Tiler>(&v)) modes.push_back(*t);
        else if (auto* l = std::get_if<Layout>(&v)) modes.push_back(*l);
        else if (auto* t2 = std::get_if<IntTuple>(&v)) modes.push_back(Tiler::from_shape(*t2));
        else throw ExprError(std::string("a tiler mode must be a layout, integer, shape, _ or tiler, got ") + kind_name(v), c->column);
      }
      return Tiler(std::move(modes));
    }
    case Expr::Kind::kCall: break;
  }
  auto it = functions().find(e.name);
  if (it == functions().end()) throw ExprError("unknown function '" + e.name + "'", e.column);
  std::vector<Value> args;
  for (const auto& c : e.children) args.push_back(evaluate(*c));
  try {
    return it->second.run(Args(e, std::move(args)));
  } catch (const LayoutError& err) {
    std::string msg = err.what();
    if (msg.rfind(e.name, 0) != 0) msg = e.name + ": " + msg;
    throw ExprError(msg, e.column);
  }
}

namespace {
// Whether every integer of the value is within the reader's literal limit,
// so that what eval prints reads back (computed values can outgrow it: a
// stride of 3e15 times 2).
constexpr Int kLiteralLimit = Int{1} << 52;
bool readable(const IntTuple& t) {
  if (t.is_underscore()) return true;
  if (t.is_int()) return t.value() <= kLiteralLimit && t.value() >= -kLiteralLimit;
  for (int i = 0; i < t.rank(); ++i)
    if (!readable(t[i])) return false;
  return true;
}
bool readable(const Layout& l) { return readable(l.shape()) && readable(l.stride()); }
bool readable(const Tiler& t) {
  if (t.is_layout()) return readable(t.layout());
  for (const Tiler& m : t.modes())
    if (!readable(m)) return false;
  return true;
}
bool readable(const Swizzle&) { return true; }
bool readable(const ComposedLayout& c) {
  return c.offset <= kLiteralLimit && c.offset >= -kLiteralLimit && readable(c.layout);
}
}  // namespace

Value evaluate(const std::string& text) {
  Value v = evaluate(*parse(text));
  if (!std::visit([](const auto& x) { return readable(x); }, v))
    throw ExprError("the result has an integer beyond 2^52, the largest the reader takes", 1);
  return v;
}

// ===========================================================================
// Printing
// ===========================================================================

std::string to_string(const Value& v) {
  return std::visit([](const auto& x) { return to_string(x); }, v);
}

namespace {

std::string json_tuple(const IntTuple& t) {
  if (t.is_underscore()) return "\"_\"";
  if (t.is_int()) return std::to_string(t.value());
  std::string s = "[";
  for (int i = 0; i < t.rank(); ++i) s += (i ? "," : "") + json_tuple(t[i]);
  return s + "]";
}

std::string json_layout(const Layout& l) {
  return "{\"shape\":" + json_tuple(l.shape()) + ",\"stride\":" + json_tuple(l.stride()) + "}";
}

std::string json_swizzle(const Swizzle& s) {
  return "[" + std::to_string(s.bits) + "," + std::to_string(s.base) + "," + std::to_string(s.shift) + "]";
}

std::string json_tiler(const Tiler& t) {
  if (t.is_identity()) return "\"_\"";
  if (t.is_layout()) return json_layout(t.layout());
  std::string s = "{\"tiler\":[";
  for (int i = 0; i < t.rank(); ++i) s += (i ? "," : "") + json_tiler(t.modes()[i]);
  return s + "]}";
}

struct JsonOf {
  std::string operator()(const IntTuple& t) const { return json_tuple(t); }
  std::string operator()(const Layout& l) const { return json_layout(l); }
  std::string operator()(const Tiler& t) const { return json_tiler(t); }
  std::string operator()(const Swizzle& s) const { return "{\"swizzle\":" + json_swizzle(s) + "}"; }
  std::string operator()(const ComposedLayout& c) const {
    return "{\"swizzle\":" + json_swizzle(c.swizzle) + ",\"offset\":" + std::to_string(c.offset) +
           ",\"layout\":" + json_layout(c.layout) + "}";
  }
};

}  // namespace

std::string to_json(const Value& v) { return std::visit(JsonOf{}, v); }

const std::vector<std::pair<std::string, std::string>>& function_help() {
  static const std::vector<std::pair<std::string, std::string>> help = [] {
    std::vector<std::pair<std::string, std::string>> h;
    for (const auto& [name, fn] : functions()) h.emplace_back(name, fn.signature);
    return h;
  }();
  return help;
}

}  // namespace tilelab
