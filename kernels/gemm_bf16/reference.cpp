#include "kernels/gemm_bf16/reference.hpp"

#include <vector>

#include "kernels/common/formats.hpp"

namespace tilelab::kernels {

void gemm_bf16_reference(const std::uint16_t* A, const std::uint16_t* B, int M, int N, int K, std::uint16_t* C) {
  std::vector<float> a(K), b(static_cast<std::size_t>(N) * K);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = bf16_to_float(B[i]);
  for (int m = 0; m < M; ++m) {
    for (int k = 0; k < K; ++k) a[k] = bf16_to_float(A[static_cast<long>(m) * K + k]);
    for (int n = 0; n < N; ++n) {
      const float* bn = b.data() + static_cast<long>(n) * K;
      float acc = 0.f;
      for (int k = 0; k < K; ++k) acc += a[k] * bn[k];
      C[static_cast<long>(m) * N + n] = float_to_bf16(acc);
    }
  }
}

}  // namespace tilelab::kernels
