#include "layouts/algebra.hpp"

#include <algorithm>
#include <string>

namespace tilelab {

namespace {

std::string str(Int v) { return std::to_string(v); }

// Compose coalesced flat A with one integral mode s:d of B: walk A's modes
// with B's stride, keeping the part of each mode B's elements land on.
// This is pycute's (current) loop; the result is not coalesced again.
// The result's flat modes are appended to `out`.
void compose_mode(const FlatLayout& a, Int s, Int d, FlatLayout& out) {
  if (d == 0) {
    out.push(s, 0);
    return;
  }
  if (d < 0) throw LayoutError("composition: the right-hand layout has a negative stride " + str(d));
  std::size_t first = out.rank();
  Int rest_shape = s, rest_stride = d;
  std::size_t last = a.rank() - 1;
  for (std::size_t k = 0; k < last; ++k) {
    Int ak = a.shape[k];
    if (rest_shape != 1) {
      // Stride divisibility: B's stride must step across A's mode in whole units.
      if (ak % rest_stride != 0 && rest_stride % ak != 0)
        throw LayoutError("composition not admissible: stride divisibility fails, right-hand stride " +
                          str(rest_stride) + " and left-hand mode shape " + str(ak) +
                          " do not divide one another");
      Int taken = std::min(std::max<Int>(1, ak / rest_stride), rest_shape);
      // Shape divisibility: B's remaining elements split evenly at this mode.
      if (rest_shape % taken != 0)
        throw LayoutError("composition not admissible: shape divisibility fails, right-hand shape " +
                          str(rest_shape) + " is not a multiple of the " + str(taken) +
                          " elements it takes from left-hand mode " + str(ak) + ":" + str(a.stride[k]));
      if (taken != 1) out.push(taken, checked_mul(rest_stride, a.stride[k]));
      rest_shape /= taken;
    }
    rest_stride = ceil_div(rest_stride, ak);
  }
  if (rest_shape != 1 || out.rank() == first) out.push(rest_shape, checked_mul(rest_stride, a.stride[last]));
}

FlatLayout coalesced_flat(const Layout& a) {
  FlatLayout f = flat_modes(a);
  coalesce_flat(f);
  return f;
}

}  // namespace

Tiler Tiler::from_shape(const IntTuple& shape) {
  if (shape.is_underscore()) return identity();
  if (shape.is_int()) return Tiler(shape.value());
  std::vector<Tiler> modes;
  for (int i = 0; i < shape.rank(); ++i) modes.push_back(from_shape(shape[i]));
  return Tiler(std::move(modes));
}

std::string to_string(const Tiler& t) {
  if (t.is_identity()) return "_";
  if (t.is_layout()) return to_string(t.layout());
  std::string s = "<";
  for (int i = 0; i < t.rank(); ++i) s += (i ? "," : "") + to_string(t.modes()[i]);
  return s + ">";
}

// ---- Composition ---------------------------------------------------------

// A o B given coalesced flat A, B's shape tree and B's flat modes: each leaf
// mode of B composed on its own (left distributivity), grafted onto B's tree.
static Layout compose_by_leaf(const FlatLayout& fa, const IntTuple& b_tree, const FlatLayout& fb) {
  FlatLayout r;
  if (b_tree.is_int()) {
    compose_mode(fa, fb.shape[0], fb.stride[0], r);
    return from_flat(r);
  }
  SmallVector<int, 16> starts;
  for (std::size_t k = 0; k < fb.rank(); ++k) {
    starts.push_back(static_cast<int>(r.rank()));
    compose_mode(fa, fb.shape[k], fb.stride[k], r);
  }
  starts.push_back(static_cast<int>(r.rank()));
  return make_layout_unchecked(b_tree.graft(starts.data(), r.shape.data()), b_tree.graft(starts.data(), r.stride.data()));
}

Layout composition(const Layout& a, const Layout& b) {
  return compose_by_leaf(coalesced_flat(a), b.shape(), flat_modes(b));
}

// Apply op(mode_i, tiler_i) to the first tiler.rank() modes of a.
template <class Op>
static Layout by_mode(const Layout& a, const Tiler& t, const char* name, Op op) {
  if (t.rank() > rank(a))
    throw LayoutError(std::string(name) + ": the tiler " + to_string(t) + " has more modes than " + to_string(a));
  IntTuple shape = IntTuple::empty_tuple(), stride = IntTuple::empty_tuple();
  for (int i = 0; i < rank(a); ++i) {
    Layout m = i < t.rank() ? op(get(a, i), t.modes()[i]) : get(a, i);
    shape.push_back(m.shape());
    stride.push_back(m.stride());
  }
  return make_layout_unchecked(std::move(shape), std::move(stride));
}

Layout composition(const Layout& a, const Tiler& b) {
  if (b.is_identity()) return a;
  if (b.is_layout()) return composition(a, b.layout());
  return by_mode(a, b, "composition", [](const Layout& x, const Tiler& t) { return composition(x, t); });
}

// ---- Complement ----------------------------------------------------------

// complement as coalesced flat modes.
static FlatLayout complement_flat(const Layout& a, Int cotarget) {
  FlatLayout f = flat_modes(a);
  struct Mode {
    Int stride, shape;
  };
  SmallVector<Mode, 16> modes;
  for (std::size_t i = 0; i < f.rank(); ++i) {
    if (f.stride[i] == 0 || f.shape[i] == 1) continue;
    if (f.stride[i] < 0) throw LayoutError("complement: negative stride " + str(f.stride[i]) + " in " + to_string(a));
    modes.push_back({f.stride[i], f.shape[i]});
  }
  std::sort(modes.begin(), modes.end(), [](const Mode& x, const Mode& y) {
    return x.stride != y.stride ? x.stride < y.stride : x.shape < y.shape;
  });
  FlatLayout r;
  Int current = 1;
  for (const Mode& m : modes) {
    if (m.stride < current)
      throw LayoutError("complement not defined: " + to_string(a) + " is not injective or its modes interleave (mode " +
                        str(m.shape) + ":" + str(m.stride) + " starts inside the span " + str(current) +
                        " of the smaller-stride modes)");
    r.push(m.stride / current, current);
    current = checked_mul(m.shape, m.stride);
  }
  r.push(ceil_div(std::max<Int>(cotarget, 1), current), current);
  coalesce_flat(r);
  return r;
}

Layout complement(const Layout& a, Int cotarget) { return from_flat(complement_flat(a, cotarget)); }

Layout complement(const Layout& a) { return complement(a, cosize(filter(a))); }

// ---- Inverses ------------------------------------------------------------

Layout right_inverse(const Layout& a) {
  FlatLayout f = coalesced_flat(a);
  struct Mode {
    Int stride, shape, index_stride;
  };
  SmallVector<Mode, 16> modes;
  Int prefix = 1;
  for (std::size_t i = 0; i < f.rank(); ++i) {
    modes.push_back({f.stride[i], f.shape[i], prefix});
    prefix = checked_mul(prefix, f.shape[i]);
  }
  std::stable_sort(modes.begin(), modes.end(), [](const Mode& x, const Mode& y) { return x.stride < y.stride; });
  FlatLayout r;
  Int current = 1;
  for (const Mode& m : modes) {
    if (m.shape == 1 || m.stride != current) continue;
    r.push(m.shape, m.index_stride);
    current = checked_mul(m.shape, m.stride);
  }
  coalesce_flat(r);
  return from_flat(r);
}

Layout left_inverse(const Layout& a) { return right_inverse(make_layout(a, complement(a))); }

// ---- Divides -------------------------------------------------------------

Layout logical_divide(const Layout& a, const Tiler& b) {
  if (b.is_identity()) return a;
  if (b.is_tuple())
    return by_mode(a, b, "logical_divide", [](const Layout& x, const Tiler& t) { return logical_divide(x, t); });
  // A o (tile, complement(tile, size(A))), composed leaf by leaf without
  // building the concatenated layout.
  const Layout& tile = b.layout();
  FlatLayout fa = coalesced_flat(a);
  Int sz = 1;
  for (Int v : fa.shape) sz = checked_mul(sz, v);
  FlatLayout rest = complement_flat(tile, sz);
  FlatLayout fb = flat_modes(tile);
  IntTuple tree = IntTuple::empty_tuple();
  tree.push_back(tile.shape());
  if (rest.rank() == 1) {
    tree.push_back(rest.shape[0]);
  } else {
    IntTuple rest_tree = IntTuple::empty_tuple();
    for (Int v : rest.shape) rest_tree.push_back(v);
    tree.push_back(rest_tree);
  }
  fb.shape.append(rest.shape.data(), rest.rank());
  fb.stride.append(rest.stride.data(), rest.rank());
  return compose_by_leaf(fa, tree, fb);
}

// Gather the rank-2 results of a by-mode divide or product into
// ((firsts...),(seconds..., untouched modes...)) following the tiler (pycute hier_unzip).
template <class Split>
static Layout hier_unzip(const Layout& a, const Tiler& b, const char* name, Split split) {
  if (b.is_identity()) return make_layout(make_layout_unchecked(1, 0), a);
  if (b.is_layout()) return split(a, b.layout());
  if (b.rank() > rank(a))
    throw LayoutError(std::string(name) + ": the tiler " + to_string(b) + " has more modes than " + to_string(a));
  std::vector<Layout> firsts, seconds;
  for (int i = 0; i < b.rank(); ++i) {
    Layout part = hier_unzip(get(a, i), b.modes()[i], name, split);
    firsts.push_back(get(part, 0));
    seconds.push_back(get(part, 1));
  }
  for (int i = b.rank(); i < rank(a); ++i) seconds.push_back(get(a, i));
  return make_layout(make_layout(firsts), make_layout(seconds));
}

static Layout unpack_second(const Layout& z) {
  std::vector<Layout> modes{get(z, 0)};
  Layout rest = get(z, 1);
  for (int i = 0; i < rank(rest); ++i) modes.push_back(get(rest, i));
  return make_layout(modes);
}

static Layout unpack_both(const Layout& z) {
  std::vector<Layout> modes;
  for (int k = 0; k < 2; ++k) {
    Layout part = get(z, k);
    for (int i = 0; i < rank(part); ++i) modes.push_back(get(part, i));
  }
  return make_layout(modes);
}

Layout zipped_divide(const Layout& a, const Tiler& b) {
  return hier_unzip(a, b, "zipped_divide", [](const Layout& x, const Layout& t) { return logical_divide(x, t); });
}
Layout tiled_divide(const Layout& a, const Tiler& b) { return unpack_second(zipped_divide(a, b)); }
Layout flat_divide(const Layout& a, const Tiler& b) { return unpack_both(zipped_divide(a, b)); }

// ---- Products ------------------------------------------------------------

Layout logical_product(const Layout& a, const Tiler& b) {
  if (b.is_identity()) return a;
  if (b.is_tuple())
    return by_mode(a, b, "logical_product", [](const Layout& x, const Tiler& t) { return logical_product(x, t); });
  const Layout& tile = b.layout();
  Int cotarget = checked_mul(size(a), cosize(tile));
  return make_layout(a, composition(complement(a, cotarget), tile));
}

Layout zipped_product(const Layout& a, const Tiler& b) {
  return hier_unzip(a, b, "zipped_product", [](const Layout& x, const Layout& t) { return logical_product(x, t); });
}
Layout tiled_product(const Layout& a, const Tiler& b) { return unpack_second(zipped_product(a, b)); }
Layout flat_product(const Layout& a, const Tiler& b) { return unpack_both(zipped_product(a, b)); }

// zip(get<0>(P), get<1>(P)) (or the reverse) of P = logical_product(pad(A), pad(B)),
// pairing mode i of the block with mode i of its repetitions.
// For R = 1 CuTe's zip pairs the single modes, but when B is an integer the
// repetition layout can come out with several modes and CuTe's zip would
// drop all but the first; tilelab keeps it whole: ((A, B')).
static Layout rank_sensitive_product(const Layout& a, const Layout& b, bool blocks_inner) {
  int r = std::max(rank(a), rank(b));
  Layout p = logical_product(append_to_rank(a, r), append_to_rank(b, r));
  Layout first = get(p, 0), second = get(p, 1);
  auto pair = [&](const Layout& x, const Layout& y) { return blocks_inner ? make_layout(x, y) : make_layout(y, x); };
  auto only_mode = [](const Layout& x) { return x.shape().is_tuple() && rank(x) == 1 ? get(x, 0) : x; };
  if (r == 1) return make_layout(std::vector<Layout>{pair(only_mode(first), only_mode(second))});
  std::vector<Layout> modes;
  for (int i = 0; i < r; ++i) modes.push_back(pair(get(first, i), get(second, i)));
  return make_layout(modes);
}

Layout blocked_product(const Layout& a, const Layout& b) { return rank_sensitive_product(a, b, true); }
Layout raked_product(const Layout& a, const Layout& b) { return rank_sensitive_product(a, b, false); }

// ---- Constructors from shapes --------------------------------------------

Layout make_ordered_layout(const IntTuple& shape, const IntTuple& order) {
  if (!weakly_congruent(order, shape))
    throw LayoutError("make_ordered_layout: order " + to_string(order) + " does not match shape " + to_string(shape));
  // One reference extent per order leaf: the size of the sub-shape it orders.
  Leaves ref_order = order.leaves(), ref_extent;
  std::vector<IntTuple> sub_shapes;
  auto collect = [&](auto&& self, const IntTuple& o, const IntTuple& s) -> void {
    if (!o.is_tuple()) {
      ref_extent.push_back(size(s));
      sub_shapes.push_back(s);
      return;
    }
    for (int i = 0; i < o.rank(); ++i) self(self, o[i], s[i]);
  };
  collect(collect, order, shape);
  // Each ordered sub-shape is compact column-major from the product of the
  // extents ordered before it.
  Leaves strides;
  for (std::size_t k = 0; k < ref_order.size(); ++k) {
    Int start = 1;
    for (std::size_t j = 0; j < ref_order.size(); ++j)
      if (ref_order[j] < ref_order[k]) start = checked_mul(start, ref_extent[j]);
    for (Int d : prefix_product(sub_shapes[k], start).leaves()) strides.push_back(d);
  }
  return Layout(shape, shape.with_leaves(strides.data()));
}

// Repetitions of `block` per mode of `target_shape`, after padding block to its rank.
static IntTuple tile_repetitions(Layout& block, const IntTuple& target_shape) {
  int r = target_shape.rank();
  if (rank(block) > r)
    throw LayoutError("tile_to_shape: the block " + to_string(block) + " has more modes than the target shape " +
                      to_string(target_shape));
  block = append_to_rank(block, r);
  Leaves block_ext = product_each(block.shape()).leaves();
  Leaves target_ext = product_each(target_shape).leaves();
  Leaves reps;
  for (int i = 0; i < r; ++i) {
    if (target_ext[i] % block_ext[i] != 0)
      throw LayoutError("tile_to_shape: block extent " + str(block_ext[i]) + " does not divide target extent " +
                        str(target_ext[i]) + " in mode " + std::to_string(i));
    reps.push_back(target_ext[i] / block_ext[i]);
  }
  return product_each(target_shape).with_leaves(reps.data());
}

Layout tile_to_shape(const Layout& block, const IntTuple& target_shape) {
  Layout padded = block;
  IntTuple reps = tile_repetitions(padded, target_shape);
  return blocked_product(padded, Layout(reps));
}

Layout tile_to_shape(const Layout& block, const IntTuple& target_shape, const IntTuple& order) {
  Layout padded = block;
  IntTuple reps = tile_repetitions(padded, target_shape);
  return blocked_product(padded, make_ordered_layout(reps, order));
}

}  // namespace tilelab
