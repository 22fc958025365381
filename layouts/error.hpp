// The one exception type of the layout engine.
//
// Every failed precondition (a non-admissible composition, a complement of an
// overlapping layout, an integer overflow, a rank mismatch) throws LayoutError
// with a one-line message naming the operation and the condition that failed.
#pragma once

#include <stdexcept>
#include <string>

namespace tilelab {

class LayoutError : public std::runtime_error {
 public:
  explicit LayoutError(const std::string& what) : std::runtime_error(what) {}
};

// Checked integer arithmetic: layouts of big problems multiply shapes and
// strides together, and a silent wrap-around would give wrong offsets.
inline long long checked_mul(long long a, long long b) {
  long long r;
  if (__builtin_mul_overflow(a, b, &r)) throw LayoutError("integer overflow in a product of shapes or strides");
  return r;
}
inline long long checked_add(long long a, long long b) {
  long long r;
  if (__builtin_add_overflow(a, b, &r)) throw LayoutError("integer overflow in a sum of offsets");
  return r;
}

}  // namespace tilelab
