// Swizzles and swizzled (composed) layouts, as CuTe's Swizzle<B,M,S> and
// ComposedLayout<Swizzle, offset, Layout>.
//
// Sw<B,M,S> XORs the B bits at [M+S, M+S+B) of an offset into the B bits at
// [M, M+B) (for S > 0; a negative S moves the other way).  It permutes
// offsets in blocks of 2^(M+B+|S|), so an LDS tile stays in place while its
// 2^M-element chunks move across banks.
#pragma once

#include <string>

#include "layouts/layout.hpp"

namespace tilelab {

struct Swizzle {
  int bits = 0;   // B: how many bits are XORed
  int base = 0;   // M: least significant bits left alone (chunk size 2^M)
  int shift = 0;  // S: distance between the source and destination bits

  // Precondition as in CuTe: B >= 0, M >= 0, |S| >= B.  Throws otherwise.
  Swizzle(int b, int m, int s);
  Swizzle() = default;

  // @post involution: sw(sw(x)) == x, and sw only changes bits [M, M+B) (S>0).
  Int operator()(Int offset) const;
  bool operator==(const Swizzle& o) const { return bits == o.bits && base == o.base && shift == o.shift; }
};

// swizzle o offset o layout:  C(c) = sw(offset + layout(c)).
struct ComposedLayout {
  Swizzle swizzle;
  Int offset = 0;
  Layout layout;

  Int operator()(Int index) const { return swizzle(checked_add(offset, layout(index))); }
  Int operator()(const IntTuple& coord) const { return swizzle(checked_add(offset, layout(coord))); }
  bool operator==(const ComposedLayout& o) const {
    return swizzle == o.swizzle && offset == o.offset && layout == o.layout;
  }
};

// The tiler acts on the inner layout; the swizzle and offset stay (CuTe's
// composition of a ComposedLayout).
inline ComposedLayout with_layout(const ComposedLayout& c, Layout inner) { return {c.swizzle, c.offset, std::move(inner)}; }

// Reinterpret a layout of old_bits-wide elements as one of new_bits-wide
// elements over the same memory (CuTe recast_layout: upcast / downcast).
// Element sizes are powers of two.  The swizzle's base M moves by
// log2(old_bits / new_bits) so that it keeps permuting the same bytes.
// @post for a downcast by N, the offsets of the result are exactly
//       { N·o + k : o an offset of the input, 0 <= k < N }, and for an upcast
//       by N the offsets of the input are { N·o + k } of the result's.
Layout recast(const Layout& l, int old_bits, int new_bits);
ComposedLayout recast(const ComposedLayout& c, int old_bits, int new_bits);

std::string to_string(const Swizzle& s);
// Sw<3,4,3> o (8,64):(64,1); a non-zero offset is printed between: Sw<3,4,3> o 32 o ...
std::string to_string(const ComposedLayout& c);

}  // namespace tilelab
