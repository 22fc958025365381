// The layout expression language of `tilelab layout eval` (CuTe notation).
//
//   integer tuples   8   (4,(2,3))   ()   _ (slice marker, in coordinates and tilers)
//   layouts          (6,2):(8,2)   12:1
//   tilers           <3:3,(2,4):(1,8)>   <4,_>
//   swizzles         Sw<3,4,3>,  composed as  Sw<3,4,3> o (8,64):(64,1)
//                    or with an offset  Sw<3,4,3> o 32 o (8,64):(64,1)
//   composition      A o B  (same as composition(A,B))
//   calls            name(arg, ...), nesting freely; see function_names().
//
// Spaces are allowed anywhere.  Reading (parse) and evaluating (evaluate) are
// separate steps; both report errors as ExprError with the 1-based column of
// the offending text.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "layouts/algebra.hpp"
#include "layouts/swizzle.hpp"

namespace tilelab {

class ExprError : public std::runtime_error {
 public:
  ExprError(const std::string& what, int column)
      : std::runtime_error(what), column_(column) {}
  int column() const { return column_; }
  // "<what>, at column N" — the form the CLI prints after "error: ".
  std::string message() const { return std::string(what()) + ", at column " + std::to_string(column_); }

 private:
  int column_;
};

// The value of an expression.
using Value = std::variant<IntTuple, Layout, Tiler, Swizzle, ComposedLayout>;

// Syntax tree of one expression.
struct Expr {
  enum class Kind { kTuple, kLayout, kTiler, kSwizzle, kCall, kCompose };
  Kind kind;
  int column;                                  // 1-based start of this node
  IntTuple tuple;                              // kTuple; shape for kLayout
  IntTuple stride;                             // kLayout
  Swizzle swizzle;                             // kSwizzle
  std::string name;                            // kCall
  std::vector<std::unique_ptr<Expr>> children; // kTiler modes, kCall args, kCompose operands
};

// Limits that keep a hostile input from exhausting the stack or memory.
constexpr int kMaxExprLength = 1 << 16;
constexpr int kMaxNesting = 64;

std::unique_ptr<Expr> parse(const std::string& text);
Value evaluate(const Expr& e);
// parse + evaluate.
Value evaluate(const std::string& text);

// CuTe notation without spaces: ((2,2),3):((24,2),8), (4), Sw<3,4,3> o 8:1.
std::string to_string(const Value& v);
// The same value as one JSON object or number: {"shape":...,"stride":...}.
std::string to_json(const Value& v);

// Names accepted in calls, each with a one-line signature, for --help.
const std::vector<std::pair<std::string, std::string>>& function_help();

}  // namespace tilelab
