// The layout algebra: composition, complement, inverses, divides and products.
//
// Semantics are CuTe's: results equal those of CuTe's C++ library
// (include/cute/layout.hpp) and its Python reference pycute, including the
// nesting of the result.  Where the two references differ the choice is
// stated at the function.  Preconditions that fail throw LayoutError naming
// the operation and the condition.
#pragma once

#include <vector>

#include "layouts/layout.hpp"

namespace tilelab {

// A tiler (CuTe's Tiler): a layout, or a tuple of tilers applied mode by
// mode, where an integer n means the layout n:1 and `_` leaves a mode alone.
// Written <L0,L1,...> in expressions.
class Tiler {
 public:
  Tiler(Layout layout) : kind_(Kind::kLayout), layout_(std::move(layout)) {}  // NOLINT: implicit by design
  Tiler(Int n) : Tiler(Layout(n, 1)) {}                                       // NOLINT
  explicit Tiler(std::vector<Tiler> modes) : kind_(Kind::kTuple), modes_(std::move(modes)) {}
  static Tiler identity() { return Tiler(Kind::kIdentity); }
  // A shape used as a tiler: (4,8) means <4:1,8:1>; `_` leaves are identities.
  static Tiler from_shape(const IntTuple& shape);

  bool is_layout() const { return kind_ == Kind::kLayout; }
  bool is_tuple() const { return kind_ == Kind::kTuple; }
  bool is_identity() const { return kind_ == Kind::kIdentity; }
  const Layout& layout() const { return layout_; }
  const std::vector<Tiler>& modes() const { return modes_; }
  int rank() const { return static_cast<int>(modes_.size()); }

 private:
  enum class Kind { kLayout, kTuple, kIdentity };
  explicit Tiler(Kind k) : kind_(k) {}
  Kind kind_;
  Layout layout_;
  std::vector<Tiler> modes_;
};

std::string to_string(const Tiler& t);

// ---- Composition ---------------------------------------------------------

// R = A o B.
// @post compatible(B, R): R has B's shape (each mode of B coalesced), and
//       R(i) == A(B(i)) for every i in B's domain.
// @pre  admissibility (CuTe's divisibility conditions): for every flat mode
//       s of coalesce(A) that B's stride walks across, B's remaining stride
//       and s divide one another, and B's remaining shape is a multiple of
//       the elements it takes from s.  pycute does not check the second and
//       returns a layout of the wrong size; tilelab refuses.
// A is coalesced first, then walked once per integral mode of B (pycute's
// and C++'s algorithm).  B strides must be non-negative.
Layout composition(const Layout& a, const Layout& b);
// By-mode composition with a tiler: mode i of A is composed with tiler i;
// modes of A beyond the tiler stay as they are.
Layout composition(const Layout& a, const Tiler& b);

// ---- Complement ----------------------------------------------------------

// The layout of the offsets in [0, cotarget) that `a` does not reach, ordered.
// @post result(i) < result(i+1), result(i) != a(j) for i >= 1 and all j,
//       size(result) >= cotarget / size(filter(a)), and make_layout(a, result)
//       is injective.
// @pre  a's non-trivial modes nest: sorted by stride, each stride is at least
//       the extent (shape·stride) of the previous one; strides non-negative.
Layout complement(const Layout& a, Int cotarget);
// cotarget = cosize(a) (C++); pycute's default 1 gives the same result.
Layout complement(const Layout& a);

// ---- Inverses ------------------------------------------------------------

// @post a(result(i)) == i for all i < size(result); result is the largest
// such layout built from a's stride-1-contiguous modes.  Modes that cannot
// take part (stride 0, interleaved) are skipped as in C++ (pycute stops at
// the first one; the results agree whenever pycute's is non-trivial).
Layout right_inverse(const Layout& a);
// pycute's definition: right_inverse(make_layout(a, complement(a))).
// @post result(a(i)) == i for all i < size(a) when a is injective.
Layout left_inverse(const Layout& a);

// ---- Divides -------------------------------------------------------------

// A o (B, complement(B, size(A))): mode 0 is the tile B, mode 1 its repetitions.
// @post size(result) == size(A) when B tiles A evenly, and the result maps
//       the same set of offsets as A.
Layout logical_divide(const Layout& a, const Tiler& b);
// logical_divide gathered as ((tiles...),(rests..., untouched modes...)).
Layout zipped_divide(const Layout& a, const Tiler& b);
// zipped_divide with the rest mode unpacked: ((tiles...), rest0, rest1, ...).
Layout tiled_divide(const Layout& a, const Tiler& b);
// zipped_divide with both modes unpacked: (tile0, tile1, ..., rest0, rest1, ...).
Layout flat_divide(const Layout& a, const Tiler& b);

// ---- Products ------------------------------------------------------------

// (A, complement(A, size(A)·cosize(B)) o B): A reproduced at B's positions.
// @post size(result) == size(A)·size(B); result(i) for i < size(A) equals A(i).
// An integer tiler n means n:1 (C++; pycute calls logical_divide there, a bug).
Layout logical_product(const Layout& a, const Tiler& b);
Layout zipped_product(const Layout& a, const Tiler& b);
Layout tiled_product(const Layout& a, const Tiler& b);
Layout flat_product(const Layout& a, const Tiler& b);
// Rank-sensitive products (C++ only): both padded to R = max rank, then
// blocked: mode i = (A_i, B'_i) — each block contiguous;
// raked:   mode i = (B'_i, A_i) — blocks interleaved;
// where B' = complement(A) o B.  The result is always a tuple of rank R
// (for R = 1, ((A, B'))).
// @post rank(result) == max(rank(A), rank(B)), size == size(A)·size(B).
Layout blocked_product(const Layout& a, const Layout& b);
Layout raked_product(const Layout& a, const Layout& b);

// ---- Constructors from shapes --------------------------------------------

// Compact layout of `shape` whose modes are laid out in increasing `order`:
// the mode with the smallest order value gets stride 1.  `order` is weakly
// congruent to `shape` (an integer order covers a whole sub-shape, which is
// then compact column-major).  Equal order values share a starting stride,
// exactly as in CuTe.
Layout make_ordered_layout(const IntTuple& shape, const IntTuple& order);
// Repeat `block` to fill `target_shape` (blocked), repetitions ordered by
// `order` (default: column-major).
// @pre rank(block) <= rank(target_shape) and every block extent divides the target's.
// @post product_each(shape(result)) == product_each(target_shape).
Layout tile_to_shape(const Layout& block, const IntTuple& target_shape);
Layout tile_to_shape(const Layout& block, const IntTuple& target_shape, const IntTuple& order);

}  // namespace tilelab
