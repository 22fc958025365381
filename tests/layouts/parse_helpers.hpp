// Test helpers: write layouts in CuTe notation, as the references do.
#pragma once

#include <string>

#include "layouts/expr.hpp"

namespace tilelab::testing {

inline Value V(const std::string& text) { return evaluate(text); }
inline Layout L(const std::string& text) { return std::get<Layout>(evaluate(text)); }
inline IntTuple I(const std::string& text) { return std::get<IntTuple>(evaluate(text)); }
inline Tiler T(const std::string& text) {
  Value v = evaluate(text);
  if (auto* t = std::get_if<Tiler>(&v)) return *t;
  if (auto* l = std::get_if<Layout>(&v)) return *l;
  return Tiler::from_shape(std::get<IntTuple>(v));
}
// Evaluate and print: the CLI's view of an expression.
inline std::string E(const std::string& text) { return to_string(evaluate(text)); }

}  // namespace tilelab::testing
