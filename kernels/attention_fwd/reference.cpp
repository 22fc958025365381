#include "kernels/attention_fwd/reference.hpp"

#include <cmath>

#include "kernels/common/formats.hpp"

namespace tilelab::kernels {

void attention_fwd_reference(const std::uint16_t* Q, const std::uint16_t* K, const std::uint16_t* V, int BH, int S,
                             int D, bool causal, float* O, float* lse) {
  const double scale = 1.0 / std::sqrt(static_cast<double>(D));
  std::vector<double> s(static_cast<std::size_t>(S)), o(static_cast<std::size_t>(D));
  for (int h = 0; h < BH; ++h) {
    const long head = static_cast<long>(h) * S * D;
    for (int i = 0; i < S; ++i) {
      const int keys = causal ? i + 1 : S;
      double mx = -INFINITY;
      for (int n = 0; n < keys; ++n) {
        double dot = 0;
        for (int d = 0; d < D; ++d)
          dot += static_cast<double>(bf16_to_float(Q[head + static_cast<long>(i) * D + d])) *
                 bf16_to_float(K[head + static_cast<long>(n) * D + d]);
        s[static_cast<std::size_t>(n)] = dot * scale;
        mx = std::max(mx, s[static_cast<std::size_t>(n)]);
      }
      double sum = 0;
      std::fill(o.begin(), o.end(), 0.0);
      for (int n = 0; n < keys; ++n) {
        const double p = std::exp(s[static_cast<std::size_t>(n)] - mx);
        sum += p;
        for (int d = 0; d < D; ++d) o[static_cast<std::size_t>(d)] += p * bf16_to_float(V[head + static_cast<long>(n) * D + d]);
      }
      for (int d = 0; d < D; ++d) O[head + static_cast<long>(i) * D + d] = static_cast<float>(o[static_cast<std::size_t>(d)] / sum);
      lse[static_cast<long>(h) * S + i] = static_cast<float>(mx + std::log(sum));
    }
  }
}

}  // namespace tilelab::kernels
