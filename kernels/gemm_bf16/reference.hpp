// CPU reference of gemm_bf16: C = A·Bᵀ with fp32 accumulation in increasing k
// order, rounded once to bf16.  (The kernel sums in MFMA order; both are fp32
// sums of the same exact bf16×bf16 products, so they differ by fp32 rounding
// only.)
#pragma once
#include <cstdint>

namespace tilelab::kernels {

// A: M×K, B: N×K, C: M×N, row-major, bf16 as raw 16-bit patterns.
void gemm_bf16_reference(const std::uint16_t* A, const std::uint16_t* B, int M, int N, int K, std::uint16_t* C);

}  // namespace tilelab::kernels
