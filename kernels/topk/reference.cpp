#include "kernels/topk/reference.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace tilelab::kernels {

bool topk_ranks_before(float va, int ia, float vb, int ib) {
  const bool na = std::isnan(va), nb = std::isnan(vb);
  if (na || nb) return na && (!nb || ia < ib);
  return va > vb || (va == vb && ia < ib);
}

void topk_reference(const float* in, int rows, int n, int k, float* values, int* indices) {
  std::vector<int> order(n);
  for (int r = 0; r < rows; ++r) {
    const float* x = in + static_cast<long>(r) * n;
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + k, order.end(),
                      [x](int a, int b) { return topk_ranks_before(x[a], a, x[b], b); });
    for (int j = 0; j < k; ++j) {
      values[static_cast<long>(r) * k + j] = x[order[j]];
      indices[static_cast<long>(r) * k + j] = order[j];
    }
  }
}

}  // namespace tilelab::kernels
