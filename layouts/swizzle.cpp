#include "layouts/swizzle.hpp"

#include <cstdlib>

namespace tilelab {

Swizzle::Swizzle(int b, int m, int s) : bits(b), base(m), shift(s) {
  if (b < 0 || m < 0 || std::abs(s) < b)
    throw LayoutError("Sw<" + std::to_string(b) + "," + std::to_string(m) + "," + std::to_string(s) +
                      ">: need B >= 0, M >= 0 and |S| >= B");
  if (b + m + std::abs(s) > 62) throw LayoutError("Sw<...>: B + M + |S| must stay below 63 bits");
}

Int Swizzle::operator()(Int offset) const {
  if (bits == 0) return offset;
  Int mask = (Int{1} << bits) - 1;
  Int src = mask << (base + (shift > 0 ? shift : 0));
  Int moved = offset & src;
  moved = shift >= 0 ? moved >> shift : moved << -shift;
  return offset ^ moved;
}

namespace {

int log2_exact(int v, const char* what) {
  if (v <= 0 || (v & (v - 1)) != 0)
    throw LayoutError(std::string("recast: ") + what + " size " + std::to_string(v) + " bits is not a power of two");
  int l = 0;
  while ((1 << l) < v) ++l;
  return l;
}

// Leaf-wise CuTe upcast<N>: strides shrink by N, the stride-1 mode's shape shrinks by N.
Layout upcast(const Layout& l, Int n) {
  FlatLayout f = flat_modes(l);
  Leaves s, d;
  for (std::size_t i = 0; i < f.rank(); ++i) {
    Int si = f.shape[i], di = f.stride[i];
    if (di == 0) {
      s.push_back(si);
      d.push_back(0);
      continue;
    }
    Int ad = di < 0 ? -di : di;
    if (ad % n != 0 && n % ad != 0)
      throw LayoutError("recast: stride " + std::to_string(di) + " and the ratio " + std::to_string(n) +
                        " do not divide one another");
    Int per = ceil_div(n, ad);
    if (si % per != 0 && per % si != 0)
      throw LayoutError("recast: the contiguous mode of size " + std::to_string(si) + " does not hold whole " +
                        std::to_string(n) + "-element groups");
    s.push_back(ceil_div(si, per));
    d.push_back((di < 0 ? -1 : 1) * ceil_div(ad, n));
  }
  return Layout(l.shape().with_leaves(s.data()), l.stride().with_leaves(d.data()));
}

// Leaf-wise CuTe downcast<N>: the stride-1 mode grows N-fold, other strides scale by N.
Layout downcast(const Layout& l, Int n) {
  FlatLayout f = flat_modes(l);
  Leaves s, d;
  for (std::size_t i = 0; i < f.rank(); ++i) {
    bool unit = f.stride[i] == 1;
    s.push_back(unit ? checked_mul(f.shape[i], n) : f.shape[i]);
    d.push_back(unit ? 1 : checked_mul(f.stride[i], n));
  }
  return Layout(l.shape().with_leaves(s.data()), l.stride().with_leaves(d.data()));
}

}  // namespace

Layout recast(const Layout& l, int old_bits, int new_bits) {
  int lo = log2_exact(old_bits, "old element"), ln = log2_exact(new_bits, "new element");
  if (lo == ln) return l;
  if (lo > ln) return downcast(l, Int{1} << (lo - ln));
  return upcast(l, Int{1} << (ln - lo));
}

ComposedLayout recast(const ComposedLayout& c, int old_bits, int new_bits) {
  int lo = log2_exact(old_bits, "old element"), ln = log2_exact(new_bits, "new element");
  int m = c.swizzle.base + lo - ln;
  if (m < 0)
    throw LayoutError("recast: " + to_string(c.swizzle) + " permutes chunks smaller than a " +
                      std::to_string(new_bits) + "-bit element");
  Int offset = c.offset;
  if (ln > lo) {
    Int n = Int{1} << (ln - lo);
    if (offset % n != 0) throw LayoutError("recast: offset " + std::to_string(offset) + " is not element aligned");
    offset /= n;
  } else {
    offset = checked_mul(offset, Int{1} << (lo - ln));
  }
  return {Swizzle(c.swizzle.bits, m, c.swizzle.shift), offset, recast(c.layout, old_bits, new_bits)};
}

std::string to_string(const Swizzle& s) {
  return "Sw<" + std::to_string(s.bits) + "," + std::to_string(s.base) + "," + std::to_string(s.shift) + ">";
}

std::string to_string(const ComposedLayout& c) {
  std::string s = to_string(c.swizzle) + " o ";
  if (c.offset != 0) s += std::to_string(c.offset) + " o ";
  return s + to_string(c.layout);
}

}  // namespace tilelab
