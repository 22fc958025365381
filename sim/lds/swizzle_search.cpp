#include "sim/lds/swizzle_search.hpp"

#include <algorithm>
#include <bit>

namespace tilelab::lds {

namespace {

// Score one LDS layout; false if an access would be split by it.
bool score(const BankModel& wm, const AccessPlan& wp, const BankModel& rm, const AccessPlan& rp,
           const LdsLayout& lds, Candidate& c) {
  try {
    c.write_conflicts = analyze_tile(wm, wp, lds).conflict_cycles;
    c.read_conflicts = analyze_tile(rm, rp, lds).conflict_cycles;
    return true;
  } catch (const ModelError&) {
    return false;
  }
}

}  // namespace

SearchResult search_swizzles(const AccessSide& write, const AccessSide& read, Int rows, Int cols, int elem_bytes) {
  if (rows <= 0 || cols <= 0 || !std::has_single_bit(static_cast<unsigned long long>(rows * cols)))
    throw ModelError("the swizzle search needs a tile whose size is a power of two");
  IntTuple shape{rows, cols};
  SearchResult result;
  const AccessPlan wp = plan_tile_access(write.tv, shape, elem_bytes, write.model->instruction().bytes,
                                         write.model->wave_size());
  const AccessPlan rp = plan_tile_access(read.tv, shape, elem_bytes, read.model->instruction().bytes,
                                         read.model->wave_size());
  auto scored = [&](const LdsLayout& lds, Candidate& c) { return score(*write.model, wp, *read.model, rp, lds, c); };
  Layout row_major(shape, IntTuple{cols, 1});

  Candidate plain;
  plain.layout = to_string(row_major);
  if (!scored([&](Int m, Int n) { return m * cols + n; }, plain))
    throw ModelError("the accesses do not fit the plain row-major tile (vector values not contiguous)");
  result.plain = plain;
  result.ranked.push_back(plain);
  ++result.evaluated;

  int bits = std::countr_zero(static_cast<unsigned long long>(rows * cols));
  for (int b = 1; b <= bits; ++b)
    for (int m = 0; b + m <= bits; ++m)
      for (int s = b; b + m + s <= bits; ++s) {
        Swizzle sw(b, m, s);
        Candidate c;
        c.swizzle = sw;
        c.layout = to_string(ComposedLayout{sw, 0, row_major});
        if (scored([&](Int m, Int n) { return sw(m * cols + n); }, c)) {
          result.ranked.push_back(c);
          ++result.evaluated;
        } else {
          ++result.skipped;
        }
      }
  // Row padding: rows of cols + p elements, p = 1, 2, 4, ... 64.
  for (int p = 1; p <= 64; p *= 2) {
    Layout padded(shape, IntTuple{cols + p, 1});
    Candidate c;
    c.padding = p;
    c.layout = to_string(padded);
    c.extra_bytes = static_cast<long long>(rows) * p * elem_bytes;
    if (scored([&](Int m, Int n) { return m * (cols + p) + n; }, c)) {
      result.ranked.push_back(c);
      ++result.evaluated;
    } else {
      ++result.skipped;
    }
  }
  std::stable_sort(result.ranked.begin(), result.ranked.end(), [](const Candidate& x, const Candidate& y) {
    if (x.total() != y.total()) return x.total() < y.total();
    if (x.extra_bytes != y.extra_bytes) return x.extra_bytes < y.extra_bytes;
    int bx = x.swizzle ? x.swizzle->bits : 0, by = y.swizzle ? y.swizzle->bits : 0;
    return bx < by;
  });
  return result;
}

}  // namespace tilelab::lds
