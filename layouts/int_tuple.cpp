#include "layouts/int_tuple.hpp"

#include <algorithm>

namespace tilelab {

IntTuple::IntTuple(std::initializer_list<IntTuple> modes) {
  nodes_.push_back({0, 0, 1});
  for (const IntTuple& m : modes) push_back(m);
}

IntTuple IntTuple::empty_tuple() {
  Node n{0, 0, 1};
  return IntTuple(&n, 1);
}

IntTuple IntTuple::underscore() {
  Node n{0, kUnderscore, 1};
  return IntTuple(&n, 1);
}

void IntTuple::push_back(const IntTuple& mode) {
  if (nodes_.size() + mode.nodes_.size() > static_cast<std::size_t>(kMaxTupleNodes))
    throw LayoutError("a tuple of more than " + std::to_string(kMaxTupleNodes) +
                      " integers and sub-tuples (the limit for a shape, stride or coordinate)");
  nodes_.append(mode.nodes_.data(), mode.nodes_.size());
  nodes_[0].count += 1;
  nodes_[0].span += static_cast<int32_t>(mode.nodes_.size());
}

std::size_t IntTuple::child_offset(int i) const {
  std::size_t off = 1;
  for (int k = 0; k < i; ++k) off += nodes_[off].span;
  return off;
}

IntTuple IntTuple::mode(int i) const {
  if (!is_tuple()) {
    if (i != 0) throw LayoutError("mode " + std::to_string(i) + " of the integer " + to_string(*this) + " does not exist");
    return *this;
  }
  if (i < 0 || i >= nodes_[0].count)
    throw LayoutError("mode " + std::to_string(i) + " of " + to_string(*this) + " does not exist (rank " +
                      std::to_string(nodes_[0].count) + ")");
  std::size_t off = child_offset(i);
  return IntTuple(nodes_.data() + off, nodes_[off].span);
}

void IntTuple::leaves(Leaves& out) const {
  std::size_t at = out.size();
  out.resize_for_overwrite(at + nodes_.size());  // an upper bound on the leaf count
  Int* dst = out.data();
  for (const Node& n : nodes_) {
    if (n.count == kLeaf) dst[at++] = n.value;
    else if (n.count == kUnderscore) throw LayoutError("`_` is only allowed in a coordinate or tiler");
  }
  out.resize(at);
}

int IntTuple::leaf_count() const {
  int c = 0;
  for (const Node& n : nodes_) c += n.count < 0;
  return c;
}

bool IntTuple::has_underscore() const {
  for (const Node& n : nodes_)
    if (n.count == kUnderscore) return true;
  return false;
}

bool IntTuple::operator==(const IntTuple& other) const {
  if (nodes_.size() != other.nodes_.size()) return false;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    const Node& a = nodes_[i];
    const Node& b = other.nodes_[i];
    if (a.count != b.count || a.span != b.span) return false;
    if (a.count == kLeaf && a.value != b.value) return false;
  }
  return true;
}

IntTuple IntTuple::with_leaves(const Int* values) const {
  IntTuple r = *this;
  for (Node& n : r.nodes_)
    if (n.count == kLeaf) n.value = *values++;
  return r;
}

// Copy the subtree at node `at` into out with leaves replaced; returns the
// node after the subtree.
std::size_t IntTuple::graft_into(std::size_t at, const int* starts, const Int* values, int& leaf,
                                 IntTuple& out) const {
  const Node& n = nodes_[at];
  if (n.count < 0) {
    int b = starts[leaf], e = starts[leaf + 1];
    ++leaf;
    if (e - b == 1) {
      out.nodes_.push_back({values[b], kLeaf, 1});
    } else {
      out.nodes_.push_back({0, e - b, e - b + 1});
      for (int k = b; k < e; ++k) out.nodes_.push_back({values[k], kLeaf, 1});
    }
    return at + 1;
  }
  std::size_t header = out.nodes_.size();
  out.nodes_.push_back({0, n.count, 1});
  std::size_t next = at + 1;
  for (int c = 0; c < n.count; ++c) next = graft_into(next, starts, values, leaf, out);
  out.nodes_[header].span = static_cast<int32_t>(out.nodes_.size() - header);
  return next;
}

IntTuple IntTuple::graft(const int* starts, const Int* values) const {
  IntTuple out(nullptr, 0);
  int leaf = 0;
  graft_into(0, starts, values, leaf, out);
  return out;
}

// ---- Queries -------------------------------------------------------------

Int size(const IntTuple& t) {
  Leaves l;
  t.leaves(l);
  Int p = 1;
  for (Int v : l) p = checked_mul(p, v);
  return p;
}

int depth(const IntTuple& t) {
  if (!t.is_tuple()) return 0;
  int d = 0;
  for (int i = 0; i < t.rank(); ++i) d = std::max(d, depth(t[i]));
  return 1 + d;
}

IntTuple flatten(const IntTuple& t) {
  if (!t.is_tuple()) return t;
  IntTuple r = IntTuple::empty_tuple();
  for (Int v : t.leaves()) r.push_back(v);
  return r;
}

bool congruent(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple() != b.is_tuple()) return false;
  if (!a.is_tuple()) return true;
  if (a.rank() != b.rank()) return false;
  for (int i = 0; i < a.rank(); ++i)
    if (!congruent(a[i], b[i])) return false;
  return true;
}

bool weakly_congruent(const IntTuple& a, const IntTuple& b) {
  if (!a.is_tuple()) return true;
  if (!b.is_tuple() || a.rank() != b.rank()) return false;
  for (int i = 0; i < a.rank(); ++i)
    if (!weakly_congruent(a[i], b[i])) return false;
  return true;
}

// ---- Arithmetic ----------------------------------------------------------

IntTuple prefix_product(const IntTuple& a, Int init) {
  Leaves l = a.leaves();
  Leaves r;
  for (Int v : l) {
    r.push_back(init);
    init = checked_mul(init, v);
  }
  return a.with_leaves(r.data());
}

static Int shape_div_int(Int a, Int b) {
  if (a <= 0 || b <= 0 || (a % b != 0 && b % a != 0))
    throw LayoutError("shape_div(" + std::to_string(a) + "," + std::to_string(b) +
                      "): neither divides the other");
  return ceil_div(a, b);
}

IntTuple shape_div(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    IntTuple r = IntTuple::empty_tuple();
    if (b.is_tuple()) {
      if (a.rank() != b.rank()) throw LayoutError("shape_div: ranks differ: " + to_string(a) + " and " + to_string(b));
      for (int i = 0; i < a.rank(); ++i) r.push_back(shape_div(a[i], b[i]));
      return r;
    }
    Int rest = b.value();
    for (int i = 0; i < a.rank(); ++i) {
      IntTuple ai = a[i];
      r.push_back(shape_div(ai, rest));
      rest = shape_div_int(rest, size(ai));
    }
    return r;
  }
  if (b.is_tuple()) return shape_div(a, size(b));
  return shape_div_int(a.value(), b.value());
}

IntTuple ceil_div(const IntTuple& a, const IntTuple& b) {
  if (a.is_tuple()) {
    IntTuple r = IntTuple::empty_tuple();
    if (b.is_tuple()) {
      if (a.rank() < b.rank()) throw LayoutError("ceil_div: " + to_string(b) + " has more modes than " + to_string(a));
      for (int i = 0; i < a.rank(); ++i) r.push_back(ceil_div(a[i], i < b.rank() ? b[i] : IntTuple(1)));
      return r;
    }
    Int rest = b.value();
    for (int i = 0; i < a.rank(); ++i) {
      IntTuple ai = a[i];
      r.push_back(ceil_div(ai, rest));
      rest = ceil_div(rest, size(ai));
    }
    return r;
  }
  Int d = size(b);
  if (d <= 0) throw LayoutError("ceil_div by a non-positive value " + to_string(b));
  return ceil_div(a.value(), d);
}

IntTuple product_each(const IntTuple& a) {
  if (!a.is_tuple()) return a;
  IntTuple r = IntTuple::empty_tuple();
  for (int i = 0; i < a.rank(); ++i) r.push_back(size(a[i]));
  return r;
}

// ---- Coordinates ---------------------------------------------------------

Int crd2idx(const IntTuple& crd, const IntTuple& shape, const IntTuple& stride) {
  if (crd.is_underscore()) return 0;
  if (crd.is_tuple()) {
    if (!shape.is_tuple() || crd.rank() != shape.rank())
      throw LayoutError("coordinate " + to_string(crd) + " does not match shape " + to_string(shape));
    Int r = 0;
    for (int i = 0; i < crd.rank(); ++i) r = checked_add(r, crd2idx(crd[i], shape[i], stride[i]));
    return r;
  }
  Int c = crd.value();
  if (!shape.is_tuple()) return checked_mul(c, stride.value());
  // An integer coordinate over a tuple mode: split it column-major over the
  // leaves; the very last leaf takes the remaining quotient unreduced.
  Leaves s = shape.leaves(), d = stride.leaves();
  Int r = 0;
  for (std::size_t k = 0; k + 1 < s.size(); ++k) {
    if (s[k] <= 0) throw LayoutError("coordinate " + to_string(crd) + " over shape " + to_string(shape) +
                                     ": an extent before the last mode is not positive");
    r = checked_add(r, checked_mul(c % s[k], d[k]));
    c /= s[k];
  }
  if (!s.empty()) r = checked_add(r, checked_mul(c, d.back()));
  return r;
}

Int crd2idx(const IntTuple& crd, const IntTuple& shape) { return crd2idx(crd, shape, prefix_product(shape)); }

IntTuple idx2crd(Int idx, const IntTuple& shape) {
  if (!shape.is_tuple()) return idx;
  Leaves s = shape.leaves();
  Leaves c;
  for (std::size_t k = 0; k < s.size(); ++k) {
    if (k + 1 < s.size()) {
      if (s[k] <= 0) throw LayoutError("idx2crd(" + std::to_string(idx) + ", " + to_string(shape) +
                                       "): an extent before the last mode is not positive");
      c.push_back(idx % s[k]);
      idx /= s[k];
    } else {
      c.push_back(idx);
    }
  }
  return shape.with_leaves(c.data());
}

IntTuple crd2crd(const IntTuple& crd, const IntTuple& dst_shape, const IntTuple& src_shape) {
  if (crd.is_tuple()) {
    if (dst_shape.is_tuple()) {
      if (crd.rank() != dst_shape.rank() || !src_shape.is_tuple() || src_shape.rank() != crd.rank())
        throw LayoutError("crd2crd: coordinate " + to_string(crd) + " does not match " + to_string(dst_shape));
      IntTuple r = IntTuple::empty_tuple();
      for (int i = 0; i < crd.rank(); ++i) r.push_back(crd2crd(crd[i], dst_shape[i], src_shape[i]));
      return r;
    }
    return crd2idx(crd, src_shape);
  }
  if (dst_shape.is_tuple()) return idx2crd(crd.value(), dst_shape);
  return crd;
}

static IntTuple slice_or_dice(const IntTuple& crd, const IntTuple& target, bool keep_underscore) {
  // Returns the kept parts as a tuple whose modes are concatenated one level
  // up, which is CuTe's filter_tuple / tuple_cat behaviour.
  if (crd.is_tuple()) {
    if (!target.is_tuple() || crd.rank() != target.rank())
      throw LayoutError("coordinate " + to_string(crd) + " does not match " + to_string(target));
    IntTuple r = IntTuple::empty_tuple();
    for (int i = 0; i < crd.rank(); ++i) {
      IntTuple part = slice_or_dice(crd[i], target[i], keep_underscore);
      for (int k = 0; k < part.rank(); ++k) r.push_back(part[k]);
    }
    return r;
  }
  bool keep = crd.is_underscore() == keep_underscore;
  IntTuple r = IntTuple::empty_tuple();
  if (keep) r.push_back(target);
  return r;
}

IntTuple slice(const IntTuple& crd, const IntTuple& target) {
  if (crd.is_underscore()) return target;
  if (!crd.is_tuple()) return IntTuple::empty_tuple();
  return slice_or_dice(crd, target, true);
}

IntTuple dice(const IntTuple& crd, const IntTuple& target) {
  if (crd.is_underscore()) return IntTuple::empty_tuple();
  if (!crd.is_tuple()) return target;
  return slice_or_dice(crd, target, false);
}

// ---- Printing ------------------------------------------------------------

static void print(const IntTuple& t, std::string& out) {
  if (t.is_underscore()) {
    out += '_';
  } else if (t.is_int()) {
    out += std::to_string(t.value());
  } else {
    out += '(';
    for (int i = 0; i < t.rank(); ++i) {
      if (i) out += ',';
      print(t[i], out);
    }
    out += ')';
  }
}

std::string to_string(const IntTuple& t) {
  std::string s;
  print(t, s);
  return s;
}

}  // namespace tilelab
