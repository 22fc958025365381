#include "kernels/attention_bwd/reference.hpp"

#include <cmath>
#include <vector>

#include "kernels/common/formats.hpp"

namespace tilelab::kernels {

void attention_bwd_reference(const std::uint16_t* Q, const std::uint16_t* K, const std::uint16_t* V, const float* O,
                             const std::uint16_t* dO, const float* lse, int BH, int S, int D, bool causal, double* dQ,
                             double* dK, double* dV) {
  const double scale = 1.0 / std::sqrt(static_cast<double>(D));
  const std::size_t n = static_cast<std::size_t>(S) * static_cast<std::size_t>(D);
  std::vector<double> q(n), k(n), v(n), o(n), go(n);
  for (int h = 0; h < BH; ++h) {
    const std::size_t head = static_cast<std::size_t>(h) * n;
    for (std::size_t e = 0; e < n; ++e) {
      q[e] = bf16_to_float(Q[head + e]), k[e] = bf16_to_float(K[head + e]), v[e] = bf16_to_float(V[head + e]);
      o[e] = O[head + e], go[e] = bf16_to_float(dO[head + e]);
    }
    std::fill(dQ + head, dQ + head + n, 0.0);
    std::fill(dK + head, dK + head + n, 0.0);
    std::fill(dV + head, dV + head + n, 0.0);
    auto row = [D](std::vector<double>& m, int r) { return m.data() + static_cast<std::size_t>(r) * static_cast<std::size_t>(D); };
    for (int i = 0; i < S; ++i) {
      double delta = 0;
      for (int d = 0; d < D; ++d) delta += row(go, i)[d] * row(o, i)[d];
      const double l = lse[static_cast<std::size_t>(h) * static_cast<std::size_t>(S) + static_cast<std::size_t>(i)];
      const int keys = causal ? i + 1 : S;
      for (int j = 0; j < keys; ++j) {
        double s = 0, dp = 0;
        for (int d = 0; d < D; ++d) s += row(q, i)[d] * row(k, j)[d], dp += row(go, i)[d] * row(v, j)[d];
        const double p = std::exp(s * scale - l), ds = p * (dp - delta);
        for (int d = 0; d < D; ++d) {
          const std::size_t at_i = head + static_cast<std::size_t>(i) * static_cast<std::size_t>(D) + static_cast<std::size_t>(d);
          const std::size_t at_j = head + static_cast<std::size_t>(j) * static_cast<std::size_t>(D) + static_cast<std::size_t>(d);
          dV[at_j] += p * row(go, i)[d];
          dQ[at_i] += ds * row(k, j)[d] * scale;
          dK[at_j] += ds * row(q, i)[d] * scale;
        }
      }
    }
  }
}

}  // namespace tilelab::kernels
