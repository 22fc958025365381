#include "layouts/layout.hpp"

namespace tilelab {

Layout::Layout(IntTuple shape, IntTuple stride) : shape_(std::move(shape)), stride_(std::move(stride)) {
  if (shape_.has_underscore() || stride_.has_underscore())
    throw LayoutError("`_` cannot be part of a layout's shape or stride");
  if (!congruent(shape_, stride_))
    throw LayoutError("shape " + to_string(shape_) + " and stride " + to_string(stride_) + " are not congruent");
  for (Int s : shape_.leaves())
    if (s <= 0) throw LayoutError("shape " + to_string(shape_) + " has a non-positive extent " + std::to_string(s));
}

Layout::Layout(IntTuple shape) : Layout(shape, prefix_product(shape)) {}

Layout make_layout_unchecked(IntTuple shape, IntTuple stride) {
  return Layout(std::move(shape), std::move(stride), Layout::Unchecked{});
}

Layout make_layout(const std::vector<Layout>& modes) {
  IntTuple s = IntTuple::empty_tuple(), d = IntTuple::empty_tuple();
  for (const Layout& m : modes) {
    s.push_back(m.shape());
    d.push_back(m.stride());
  }
  return make_layout_unchecked(s, d);
}

Layout make_layout(const Layout& a, const Layout& b) {
  return make_layout_unchecked(IntTuple{a.shape(), b.shape()}, IntTuple{a.stride(), b.stride()});
}

FlatLayout flat_modes(const Layout& l) {
  FlatLayout f;
  l.shape().leaves(f.shape);
  l.stride().leaves(f.stride);
  return f;
}

Layout from_flat(const FlatLayout& f) {
  if (f.rank() == 0) return make_layout_unchecked(1, 0);
  if (f.rank() == 1) return make_layout_unchecked(f.shape[0], f.stride[0]);
  IntTuple s = IntTuple::empty_tuple(), d = IntTuple::empty_tuple();
  for (std::size_t i = 0; i < f.rank(); ++i) {
    s.push_back(f.shape[i]);
    d.push_back(f.stride[i]);
  }
  return make_layout_unchecked(s, d);
}

Int cosize(const Layout& l) {
  // The largest offset plus one, which for non-negative strides is L(size-1)+1.
  FlatLayout f = flat_modes(l);
  Int hi = 0;
  for (std::size_t i = 0; i < f.rank(); ++i)
    if (f.stride[i] > 0) hi = checked_add(hi, checked_mul(f.shape[i] - 1, f.stride[i]));
  return hi + 1;
}

Layout get(const Layout& l, int i) { return make_layout_unchecked(l.shape()[i], l.stride()[i]); }

Layout select(const Layout& l, const std::vector<int>& modes) {
  std::vector<Layout> picked;
  for (int i : modes) picked.push_back(get(l, i));
  return make_layout(picked);
}

Layout group(const Layout& l, int begin, int end) {
  int r = rank(l);
  if (begin < 0 || end > r || begin >= end)
    throw LayoutError("group: range [" + std::to_string(begin) + "," + std::to_string(end) + ") is not within rank " +
                      std::to_string(r));
  std::vector<Layout> out, inner;
  for (int i = 0; i < r; ++i) {
    if (i < begin || i >= end) {
      if (i == end) out.push_back(make_layout(inner));
      out.push_back(get(l, i));
    } else {
      inner.push_back(get(l, i));
    }
  }
  if (end == r) out.push_back(make_layout(inner));
  return make_layout(out);
}

static std::vector<Layout> modes_of(const Layout& l) {
  std::vector<Layout> m;
  for (int i = 0; i < rank(l); ++i) m.push_back(get(l, i));
  return m;
}

Layout append(const Layout& l, const Layout& mode) {
  std::vector<Layout> m = modes_of(l);
  m.push_back(mode);
  return make_layout(m);
}

Layout prepend(const Layout& l, const Layout& mode) {
  std::vector<Layout> m = modes_of(l);
  m.insert(m.begin(), mode);
  return make_layout(m);
}

Layout append_to_rank(const Layout& l, int r) {
  if (rank(l) >= r) return l;
  std::vector<Layout> m = modes_of(l);
  while (static_cast<int>(m.size()) < r) m.push_back(make_layout_unchecked(1, 0));
  return make_layout(m);
}

Layout flatten(const Layout& l) { return make_layout_unchecked(flatten(l.shape()), flatten(l.stride())); }

Layout slice(const IntTuple& coord, const Layout& l) {
  return make_layout_unchecked(slice(coord, l.shape()), slice(coord, l.stride()));
}

Layout dice(const IntTuple& coord, const Layout& l) {
  return make_layout_unchecked(dice(coord, l.shape()), dice(coord, l.stride()));
}

// ---- Simplification ------------------------------------------------------

void coalesce_flat(FlatLayout& f) {
  std::size_t n = 0;  // modes kept so far, in f[0, n)
  for (std::size_t i = 0; i < f.rank(); ++i) {
    Int s = f.shape[i], d = f.stride[i];
    if (s == 1) continue;
    if (n > 0 && checked_mul(f.shape[n - 1], f.stride[n - 1]) == d) {
      f.shape[n - 1] = checked_mul(f.shape[n - 1], s);
    } else {
      f.shape[n] = s;
      f.stride[n] = d;
      ++n;
    }
  }
  if (n == 0) {
    f.shape.resize(1);
    f.stride.resize(1);
    f.shape[0] = 1;
    f.stride[0] = 0;
    return;
  }
  f.shape.resize(n);
  f.stride.resize(n);
}

Layout coalesce(const Layout& l) {
  FlatLayout f = flat_modes(l);
  coalesce_flat(f);
  return from_flat(f);
}

// Apply `op` to the modes of l selected by a tuple profile, recursively.
template <class Op>
static Layout by_profile(const Layout& l, const IntTuple& profile, const char* name, Op op) {
  if (!profile.is_tuple()) return op(l);
  if (rank(l) < profile.rank() || !l.shape().is_tuple())
    throw LayoutError(std::string(name) + ": profile " + to_string(profile) + " has more modes than " + to_string(l));
  std::vector<Layout> m;
  for (int i = 0; i < rank(l); ++i)
    m.push_back(i < profile.rank() ? by_profile(get(l, i), profile[i], name, op) : get(l, i));
  return make_layout(m);
}

Layout coalesce(const Layout& l, const IntTuple& profile) {
  return by_profile(l, profile, "coalesce", [](const Layout& x) { return coalesce(x); });
}

Layout filter(const Layout& l) {
  FlatLayout in = flat_modes(l), kept;
  for (std::size_t i = 0; i < in.rank(); ++i)
    if (in.shape[i] != 1 && in.stride[i] != 0) kept.push(in.shape[i], in.stride[i]);
  return coalesce(from_flat(kept));
}

Layout filter(const Layout& l, const IntTuple& profile) {
  return by_profile(l, profile, "filter", [](const Layout& x) { return filter(x); });
}

std::string to_string(const Layout& l) { return to_string(l.shape()) + ":" + to_string(l.stride()); }

}  // namespace tilelab
