#include "layouts/tv_layout.hpp"

namespace tilelab {

// A layout that numbers its domain densely: a bijection onto [0, size).
static void require_dense(const Layout& l, const char* what) {
  if (size(right_inverse(l)) != size(l))
    throw LayoutError(std::string("make_layout_tv: the ") + what + " layout " + to_string(l) +
                      " must number its elements 0.." + std::to_string(size(l) - 1) + " without holes or repeats");
}

TVLayout make_layout_tv(const Layout& thr, const Layout& val) {
  require_dense(thr, "thread");
  require_dense(val, "value");
  TVLayout r;
  r.threads = size(thr);
  r.values = size(val);
  r.tile = raked_product(thr, val);
  r.tile_shape = product_each(r.tile.shape());
  Layout inv = right_inverse(r.tile);
  Int need = checked_mul(r.threads, r.values);
  if (size(inv) < need)
    throw LayoutError("make_layout_tv: the thread layout " + to_string(thr) + " and value layout " + to_string(val) +
                      " do not number " + std::to_string(need) + " (thread, value) pairs densely");
  r.tv = composition(inv, Layout(IntTuple{r.threads, r.values}));
  return r;
}

ThreadValue owner_of(const TVLayout& tv, const IntTuple& coord) {
  Int idx = tv.tile(coord);
  return {idx % tv.threads, idx / tv.threads};
}

std::vector<IntTuple> partition(const TVLayout& tv, Int thread) {
  if (thread < 0 || thread >= tv.threads)
    throw LayoutError("thread " + std::to_string(thread) + " is outside [0," + std::to_string(tv.threads) + ")");
  std::vector<IntTuple> out;
  for (Int v = 0; v < tv.values; ++v) out.push_back(idx2crd(tv.tv(IntTuple{thread, v}), tv.tile_shape));
  return out;
}

}  // namespace tilelab
