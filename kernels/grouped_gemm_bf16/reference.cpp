#include "kernels/grouped_gemm_bf16/reference.hpp"

#include <stdexcept>

#include "kernels/gemm_bf16/reference.hpp"

namespace tilelab::kernels {

std::vector<int> grouped_gemm_row_offsets(const std::vector<int>& group_m) {
  std::vector<int> offsets{0};
  for (std::size_t g = 0; g < group_m.size(); ++g) {
    if (group_m[g] < 0 || group_m[g] % 128 != 0)
      throw std::invalid_argument("group " + std::to_string(g) + " has M = " + std::to_string(group_m[g]) +
                                  ": grouped_gemm_bf16 needs every M_g % 128 == 0");
    offsets.push_back(offsets.back() + group_m[g]);
  }
  return offsets;
}

void grouped_gemm_bf16_reference(const std::uint16_t* A, const std::uint16_t* B, const std::vector<int>& row_offsets,
                                 int N, int K, std::uint16_t* C) {
  for (std::size_t g = 0; g + 1 < row_offsets.size(); ++g) {
    const int m0 = row_offsets[g], rows = row_offsets[g + 1] - m0;
    if (rows == 0) continue;
    gemm_bf16_reference(A + static_cast<long>(m0) * K, B + static_cast<long>(g) * N * K, rows, N, K,
                        C + static_cast<long>(m0) * N);
  }
}

}  // namespace tilelab::kernels
