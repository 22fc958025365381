// CPU reference of attention_fwd in double precision: for each head and
// query i, s_n = (q_i · k_n) / sqrt(D) over keys n (n <= i when causal),
// O_i = sum_n softmax(s)_n v_n, lse_i = ln sum_n exp(s_n).  Inputs are the
// kernel's bf16 codes; outputs in float.
#pragma once
#include <cstdint>
#include <vector>

namespace tilelab::kernels {

void attention_fwd_reference(const std::uint16_t* Q, const std::uint16_t* K, const std::uint16_t* V, int BH, int S,
                             int D, bool causal, float* O, float* lse);

}  // namespace tilelab::kernels
