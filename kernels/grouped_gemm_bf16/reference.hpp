// CPU reference of grouped_gemm_bf16: per group, gemm_bf16's reference.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tilelab::kernels {

// The row offsets (prefix sums, G + 1 entries) of groups with these M_g;
// throws std::invalid_argument naming the first group whose M_g is negative
// or not a multiple of 128 (the kernel's tile -> group mapping needs it).
std::vector<int> grouped_gemm_row_offsets(const std::vector<int>& group_m);

// A: ΣM_g × K (groups stacked), B: G × N × K, C: ΣM_g × N; bf16 bit patterns.
void grouped_gemm_bf16_reference(const std::uint16_t* A, const std::uint16_t* B, const std::vector<int>& row_offsets,
                                 int N, int K, std::uint16_t* C);

}  // namespace tilelab::kernels
