// The CPU references' GEMM: C = A·Bᵀ with each output the f32 sum over
// k = 0, 1, ..., K-1 of a[m][k]·b[n][k], one rounding per product and per add
// in that order, then one rounding to bf16 — the plain triple loop's result,
// bit for bit, whatever the host (no fused multiply-add, no reassociation).
#pragma once
#include <cstdint>
#include <functional>

namespace tilelab::kernels {

// a_row(m, row) writes row m of A (K values); b(n, k) is B's element (n, k),
// asked for once each.  C: M×N, row-major, bf16 as raw 16-bit patterns.
void gemm_in_k_order(int M, int N, int K, const std::function<void(int m, float* row)>& a_row,
                     const std::function<float(int n, int k)>& b, std::uint16_t* C);

}  // namespace tilelab::kernels
