// Thread–value layouts: which thread holds which elements of a tile.
//
// As CuTe's make_layout_tv: the tile layout is the raked product of a thread
// layout and a value layout (values of one thread interleaved at the
// thread-layout's period), and the thread–value layout is its right inverse
// reshaped to (threads, values).
#pragma once

#include <vector>

#include "layouts/algebra.hpp"

namespace tilelab {

struct TVLayout {
  Layout tile;        // tile coordinate (m,n) -> thread + threads·value
  Layout tv;          // (thread, value) -> column-major index of the tile element
  IntTuple tile_shape;  // extent of each tile mode, e.g. (16,32)
  Int threads = 0;
  Int values = 0;
};

// @post for every thread t < size(thr) and value v < size(val):
//       tile(tv(t, v)) == t + size(thr)·v, i.e. the two layouts are inverse.
// @pre  thr maps its domain one-to-one onto [0, size(thr)) (threads numbered
//       densely) and val is compact; otherwise throws.
TVLayout make_layout_tv(const Layout& thr, const Layout& val);

struct ThreadValue {
  Int thread;
  Int value;
};
// Who holds tile element `coord` (a coordinate of tile_shape, e.g. (m,n)).
ThreadValue owner_of(const TVLayout& tv, const IntTuple& coord);
// Tile coordinates (as tile_shape coordinates) held by `thread`, by value index.
std::vector<IntTuple> partition(const TVLayout& tv, Int thread);

}  // namespace tilelab
