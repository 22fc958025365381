// Layouts: a shape and a congruent stride, a function from coordinates to offsets.
//
//   L(c) = sum_k c_k * d_k   over the leaves of the natural coordinate c of L's shape.
//
// Layouts are small values; every operation is a free function named as in
// CuTe (include/cute/layout.hpp).  Printing is CuTe notation: (4,8):(1,4).
#pragma once

#include <string>
#include <vector>

#include "layouts/int_tuple.hpp"

namespace tilelab {

class Layout {
 public:
  Layout() : Layout(IntTuple(1), IntTuple(0)) {}
  // Precondition: shape and stride congruent, shapes positive.  Throws otherwise.
  Layout(IntTuple shape, IntTuple stride);
  // Compact column-major layout of `shape` (CuTe make_layout(shape)).
  explicit Layout(IntTuple shape);

  const IntTuple& shape() const { return shape_; }
  const IntTuple& stride() const { return stride_; }

  // L(i) for a linear index i of the domain (extends the last mode past size).
  Int operator()(Int index) const { return crd2idx(IntTuple(index), shape_, stride_); }
  // L(c) for a coordinate c (hierarchical, or partially linear per mode).
  // The coordinate must not contain `_`; use slice() for that.
  Int operator()(const IntTuple& coord) const { return crd2idx(coord, shape_, stride_); }

  bool operator==(const Layout& o) const { return shape_ == o.shape_ && stride_ == o.stride_; }
  bool operator!=(const Layout& o) const { return !(*this == o); }

 private:
  struct Unchecked {};
  Layout(IntTuple shape, IntTuple stride, Unchecked) : shape_(std::move(shape)), stride_(std::move(stride)) {}
  friend Layout make_layout_unchecked(IntTuple shape, IntTuple stride);

  IntTuple shape_;
  IntTuple stride_;
};

// Internal: build without validation, for results the algebra knows are well formed.
Layout make_layout_unchecked(IntTuple shape, IntTuple stride);

// ---- Construction --------------------------------------------------------

// A layout whose modes are the given layouts:  make_layout(A, B) = (sA,sB):(dA,dB).
Layout make_layout(const std::vector<Layout>& modes);
Layout make_layout(const Layout& a, const Layout& b);

// Flat modes (shape, stride) of a layout, in order.
struct FlatLayout {
  Leaves shape;
  Leaves stride;
  std::size_t rank() const { return shape.size(); }
  void push(Int s, Int d) {
    shape.push_back(s);
    stride.push_back(d);
  }
};
FlatLayout flat_modes(const Layout& l);
// Coalesce flat modes in place: drop shape-1 modes, merge s0:d0, s1:s0*d0
// into s0*s1:d0; nothing left gives the single mode 1:0.
void coalesce_flat(FlatLayout& f);
// A layout from flat modes: a single mode becomes an integer layout s:d,
// several a tuple; none gives 1:0.
Layout from_flat(const FlatLayout& f);

// ---- Queries -------------------------------------------------------------

// Size of the domain: product of the shape.
inline Int size(const Layout& l) { return size(l.shape()); }
// Size of the codomain: L(size-1) + 1 (CuTe cosize; valid for non-negative strides).
Int cosize(const Layout& l);
inline int rank(const Layout& l) { return l.shape().rank(); }
inline int depth(const Layout& l) { return depth(l.shape()); }

// Mode i as a layout.
Layout get(const Layout& l, int i);
// Modes i0, i1, ... in that order, as a new layout.
Layout select(const Layout& l, const std::vector<int>& modes);
// Modes [begin, end) grouped into one mode.
Layout group(const Layout& l, int begin, int end);
// Add a mode at the end / the front.  A non-tuple layout becomes rank 2.
Layout append(const Layout& l, const Layout& mode);
Layout prepend(const Layout& l, const Layout& mode);
// Pad with 1:0 modes up to rank r (CuTe append<R>); no change if rank >= r.
Layout append_to_rank(const Layout& l, int r);
// Flatten the shape and stride (integers stay integers).
Layout flatten(const Layout& l);

// Sub-layout at the `_` positions of coord (CuTe slice, `L(2,_)`).
Layout slice(const IntTuple& coord, const Layout& l);
// Sub-layout at the integer positions of coord (CuTe dice).
Layout dice(const IntTuple& coord, const Layout& l);

// ---- Simplification ------------------------------------------------------

// The same function on the same domain with the fewest flat modes:
// shape-1 modes drop, and (s0:d0, s1:d1) merge into s0*s1:d0 when d1 == s0*d0.
// @post size(result) == size(l) and result(i) == l(i) for all i < size(l).
Layout coalesce(const Layout& l);
// Coalesce each mode selected by `profile`: where the profile is a tuple,
// recurse mode by mode (extra modes of l stay as they are); where it is an
// integer, coalesce that whole mode.
Layout coalesce(const Layout& l, const IntTuple& profile);
// Drop stride-0 and shape-1 modes, then coalesce (CuTe filter).
// @post result is injective over its domain if l's non-zero-stride modes are.
Layout filter(const Layout& l);
Layout filter(const Layout& l, const IntTuple& profile);

// ---- Printing ------------------------------------------------------------

std::string to_string(const Layout& l);

}  // namespace tilelab
