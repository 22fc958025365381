// Hierarchical integer tuples: the shapes, strides and coordinates of layouts.
//
// An IntTuple is either an integer or a tuple of IntTuples, e.g. 8 or
// (4,(2,3)).  A rank-1 tuple (4) is distinct from the integer 4, as in CuTe.
// Coordinates may also hold the slice marker `_` (CuTe's Underscore).
//
// Semantics follow CuTe's C++ library (include/cute/int_tuple.hpp) and its
// Python reference pycute (python/pycute/int_tuple.py); where the two differ
// the C++ behaviour is kept and the difference is noted at the function.
//
// Storage: one flat pre-order array of nodes with inline capacity, so that
// copying a tuple is a memcpy and the algebra does not touch the heap for the
// layouts kernels use.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include "layouts/error.hpp"
#include "layouts/small_vector.hpp"

namespace tilelab {

using Int = long long;

// The most integers and sub-tuples one tuple may hold. Mode access walks the
// flat node array, so the algebra is quadratic in this; the limit keeps every
// operation fast and is far above any layout a kernel uses. Enforced where
// tuples grow (push_back), so the expression parser, the Python module and
// the algebra's own results all refuse the same inputs with the same message.
constexpr int kMaxTupleNodes = 4096;

// Leaf values of a tuple in order (the result of flattening).
using Leaves = SmallVector<Int, 16>;

class IntTuple {
 public:
  IntTuple() : IntTuple(Int{0}) {}
  IntTuple(Int value) { nodes_.push_back({value, kLeaf, 1}); }  // NOLINT: implicit by design
  IntTuple(int value) : IntTuple(Int{value}) {}                  // NOLINT
  IntTuple(std::initializer_list<IntTuple> modes);               // a tuple of the given modes

  static IntTuple empty_tuple();
  static IntTuple underscore();

  bool is_int() const { return nodes_[0].count == kLeaf; }
  bool is_underscore() const { return nodes_[0].count == kUnderscore; }
  bool is_tuple() const { return nodes_[0].count >= 0; }
  Int value() const { return nodes_[0].value; }  // precondition: is_int()

  // Number of top-level modes; an integer (or `_`) has rank 1, as in CuTe.
  int rank() const { return is_tuple() ? nodes_[0].count : 1; }
  // Mode i; for an integer, mode 0 is the integer itself.
  IntTuple mode(int i) const;
  IntTuple operator[](int i) const { return mode(i); }

  // Append a mode to a tuple (precondition: is_tuple()).
  void push_back(const IntTuple& mode);

  // The integers at the leaves, in order; throws if `_` occurs.
  void leaves(Leaves& out) const;
  Leaves leaves() const {
    Leaves out;
    leaves(out);
    return out;
  }
  int leaf_count() const;
  bool has_underscore() const;

  bool operator==(const IntTuple& other) const;
  bool operator!=(const IntTuple& other) const { return !(*this == other); }

  // Same tree as this one with its leaves replaced, in order, by `values`.
  IntTuple with_leaves(const Int* values) const;
  // Same tree with leaf k replaced by the values [starts[k], starts[k+1]) of
  // `values`: one value stays an integer, several become a flat tuple.
  // (The algebra's by-leaf results are assembled this way without copies.)
  IntTuple graft(const int* starts, const Int* values) const;

 private:
  static constexpr int32_t kLeaf = -1;
  static constexpr int32_t kUnderscore = -2;
  struct Node {
    Int value;      // the integer of a leaf; unused for tuples
    int32_t count;  // number of children of a tuple, or kLeaf / kUnderscore
    int32_t span;   // nodes in this subtree, itself included
  };
  explicit IntTuple(const Node* nodes, std::size_t n) { nodes_.append(nodes, n); }
  std::size_t child_offset(int i) const;
  std::size_t graft_into(std::size_t at, const int* starts, const Int* values, int& leaf, IntTuple& out) const;

  SmallVector<Node, 24> nodes_;  // a rank-2 divide of depth-2 modes fits inline
};

// ---- Queries -------------------------------------------------------------

// Product of all leaves (CuTe `size`/`product`).  size(()) == 1.
Int size(const IntTuple& t);
inline Int product(const IntTuple& t) { return size(t); }
// Number of top-level modes (1 for an integer).
inline int rank(const IntTuple& t) { return t.rank(); }
// Nesting depth: 0 for an integer, 1 + max depth of the modes for a tuple.
int depth(const IntTuple& t);
// A tuple of the leaves; an integer stays an integer (CuTe's flatten).
IntTuple flatten(const IntTuple& t);
// Same tree structure (profile), leaves may differ.
bool congruent(const IntTuple& a, const IntTuple& b);
// a's profile is a coarsening of b's: where a has a leaf, b may have a subtree.
bool weakly_congruent(const IntTuple& a, const IntTuple& b);

// ---- Arithmetic on tuples ------------------------------------------------

// Exclusive prefix product, congruent to a:  prefix_product((2,(3,4))) == (1,(2,6)).
IntTuple prefix_product(const IntTuple& a, Int init = 1);
// Compact column-major strides for shape a, starting at `init` (CuTe compact_major<LayoutLeft>).
inline IntTuple compact_col_major(const IntTuple& a, Int init = 1) { return prefix_product(a, init); }
// Inclusive prefix ceil-division, congruent to a.  Precondition at each leaf:
// one of the two divides the other; otherwise throws naming the pair.
IntTuple shape_div(const IntTuple& a, const IntTuple& b);
// CuTe ceil_div: element-wise for tuple/tuple, folded for tuple/int.
IntTuple ceil_div(const IntTuple& a, const IntTuple& b);
// The smallest q with q * b >= a (b > 0), without the overflow of (a + b - 1) / b.
inline Int ceil_div(Int a, Int b) {
  if (b <= 0) throw LayoutError("ceil_div by " + std::to_string(b) + ": the divisor must be positive");
  return a / b + (a % b > 0 ? 1 : 0);
}
// Product of each top-level mode: product_each((2,(3,4))) == (2,12).
IntTuple product_each(const IntTuple& a);

// ---- Coordinates ---------------------------------------------------------

// Linear index of a coordinate in a layout: sum of coordinate · stride, where
// an integer coordinate of a tuple mode is first split column-major over that
// mode; the last mode is not reduced modulo its size (CuTe semantics).
Int crd2idx(const IntTuple& crd, const IntTuple& shape, const IntTuple& stride);
// Same with compact column-major strides: the colexicographic index.
Int crd2idx(const IntTuple& crd, const IntTuple& shape);
// Natural (hierarchical) coordinate of index idx in shape, column-major;
// inverse of crd2idx(., shape) on [0, size(shape)).  As CuTe's C++ (and unlike
// pycute, which wraps) an index past the end extends the last mode.
IntTuple idx2crd(Int idx, const IntTuple& shape);
// Convert a coordinate of src_shape to the congruent coordinate in dst_shape.
IntTuple crd2crd(const IntTuple& crd, const IntTuple& dst_shape, const IntTuple& src_shape);

// Slice: keep the parts of `target` at the `_` positions of `crd` (CuTe slice).
// The result is a tuple (rank-1 tuples included), or `target` itself when crd is `_`.
IntTuple slice(const IntTuple& crd, const IntTuple& target);
// Dice: keep the parts of `target` at the integer positions of `crd` (CuTe dice).
IntTuple dice(const IntTuple& crd, const IntTuple& target);

// ---- Printing ------------------------------------------------------------

// CuTe notation without spaces: 8, (4), (4,(2,3)), _ for the slice marker.
std::string to_string(const IntTuple& t);

}  // namespace tilelab
