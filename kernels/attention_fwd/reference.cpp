#include "kernels/attention_fwd/reference.hpp"

#include <algorithm>
#include <cmath>

#include "kernels/common/formats.hpp"
#include "kernels/common/host_threads.hpp"

namespace tilelab::kernels {
namespace {

constexpr int kKeys = 8;  // keys whose scores are summed at once, each its own add chain

// s[n] = (q · k_n) for the keys n < keys, each dot the sum over d in order
// (the plain loop's bits: a product of two bf16 values is exact in double).
// kt is the head's K transposed, kt[d * S + n].  The compiler vectorizes
// across kKeys keys, whose chains are independent: no sum is reassociated.
// Built for AVX-512 too, chosen at run time; CMakeLists.txt compiles this
// file with -ffp-contract=off, so no multiply and add fuse on either.
__attribute__((target_clones("avx512f", "default"))) void scores(const double* q, const double* kt, int S, int D, int keys,
                                                                  double* s) {
  int n = 0;
  for (; n + kKeys <= keys; n += kKeys) {
    double acc[kKeys] = {};
    for (int d = 0; d < D; ++d)
      for (int j = 0; j < kKeys; ++j) acc[j] += q[d] * kt[static_cast<std::size_t>(d) * S + n + j];
    std::copy(acc, acc + kKeys, s + n);
  }
  for (; n < keys; ++n) {
    double dot = 0;
    for (int d = 0; d < D; ++d) dot += q[d] * kt[static_cast<std::size_t>(d) * S + n];
    s[n] = dot;
  }
}

// One head: rows i of O and lse, in the plain loop's order of operations
// (P·V vectorized across d: each output's sum over keys stays in key order).
__attribute__((target_clones("avx512f", "default"))) void head(const std::uint16_t* Q, const std::uint16_t* K,
                                                                const std::uint16_t* V, int S, int D, bool causal,
                                                                double scale, float* O, float* lse) {
  const std::size_t rows = static_cast<std::size_t>(S), cols = static_cast<std::size_t>(D);
  std::vector<double> kt(rows * cols), v(rows * cols), q(cols), s(rows), o(cols);
  for (std::size_t n = 0; n < rows; ++n)
    for (std::size_t d = 0; d < cols; ++d) {
      kt[d * rows + n] = bf16_to_float(K[n * cols + d]);
      v[n * cols + d] = bf16_to_float(V[n * cols + d]);
    }
  for (int i = 0; i < S; ++i) {
    const int keys = causal ? i + 1 : S;
    for (std::size_t d = 0; d < cols; ++d) q[d] = bf16_to_float(Q[static_cast<std::size_t>(i) * cols + d]);
    scores(q.data(), kt.data(), S, D, keys, s.data());
    double mx = -INFINITY;
    for (int n = 0; n < keys; ++n) {
      s[static_cast<std::size_t>(n)] *= scale;
      mx = std::max(mx, s[static_cast<std::size_t>(n)]);
    }
    double sum = 0;
    std::fill(o.begin(), o.end(), 0.0);
    for (int n = 0; n < keys; ++n) {
      const double p = std::exp(s[static_cast<std::size_t>(n)] - mx);
      sum += p;
      const double* vn = v.data() + static_cast<std::size_t>(n) * cols;
      for (std::size_t d = 0; d < cols; ++d) o[d] += p * vn[d];
    }
    for (std::size_t d = 0; d < cols; ++d) O[static_cast<std::size_t>(i) * cols + d] = static_cast<float>(o[d] / sum);
    lse[i] = static_cast<float>(mx + std::log(sum));
  }
}

}  // namespace

// The heads split between the machine's threads; each head's K transposed
// and V widened to double once, not once per query.
void attention_fwd_reference(const std::uint16_t* Q, const std::uint16_t* K, const std::uint16_t* V, int BH, int S,
                             int D, bool causal, float* O, float* lse) {
  const double scale = 1.0 / std::sqrt(static_cast<double>(D));
  const std::size_t per_head = static_cast<std::size_t>(S) * static_cast<std::size_t>(D);
  auto heads = [&](int t, int threads) {
    for (int h = t; h < BH; h += threads)
      head(Q + h * per_head, K + h * per_head, V + h * per_head, S, D, causal, scale, O + h * per_head,
           lse + static_cast<std::size_t>(h) * static_cast<std::size_t>(S));
  };
  on_host_threads(BH, heads);
}

}  // namespace tilelab::kernels
