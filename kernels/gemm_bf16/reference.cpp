#include "kernels/gemm_bf16/reference.hpp"

#include "kernels/common/formats.hpp"
#include "kernels/common/k_order_gemm.hpp"

namespace tilelab::kernels {

// The plain triple loop's result, bit for bit (gemm_in_k_order).
void gemm_bf16_reference(const std::uint16_t* A, const std::uint16_t* B, int M, int N, int K, std::uint16_t* C) {
  gemm_in_k_order(
      M, N, K,
      [&](int m, float* row) {
        for (int k = 0; k < K; ++k) row[k] = bf16_to_float(A[static_cast<long>(m) * K + k]);
      },
      [&](int n, int k) { return bf16_to_float(B[static_cast<long>(n) * K + k]); }, C);
}

}  // namespace tilelab::kernels
