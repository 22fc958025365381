// CPU reference of attention backward in double precision.  For each head,
// with s_in = (q_i · k_n)/sqrt(D) over keys n (n <= i when causal) and the
// given log-sum-exp, P_in = exp(s_in - lse_i):
//   delta_i = sum_d dO_id O_id,   dV_n = sum_i P_in dO_i,
//   dP_in = dO_i · v_n,           dS_in = P_in (dP_in - delta_i),
//   dQ_i = sum_n dS_in k_n / sqrt(D),   dK_n = sum_i dS_in q_i / sqrt(D).
// Q, K, V, dO are the kernel's bf16 codes; O and lse are given as values
// (the forward's results, as the kernel receives them), so the reference
// differentiates the loss sum(dO ∘ O) exactly when O and lse are exact.
#pragma once
#include <cstdint>

namespace tilelab::kernels {

void attention_bwd_reference(const std::uint16_t* Q, const std::uint16_t* K, const std::uint16_t* V, const float* O,
                             const std::uint16_t* dO, const float* lse, int BH, int S, int D, bool causal, double* dQ,
                             double* dK, double* dV);

}  // namespace tilelab::kernels
