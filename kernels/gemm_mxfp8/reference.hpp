// CPU reference of the MX scaled GEMMs: C = (A·sA)·(B·sB)ᵀ with operands as
// element codes and E8M0 block scales (kernels/common/mx_formats.hpp),
// decoded bit-exactly, products summed in fp32 in increasing k, C rounded
// once to bf16.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/common/mx_formats.hpp"

namespace tilelab::kernels {

// "" when (M, N, K) suits the MX GEMM kernels, else the rule it breaks:
// M % 128, N % 128 (the block tile), K % 128 (one MFMA K step; a multiple of
// the 32-value scale block).
std::string mx_gemm_shape_error(long long M, long long N, long long K);

// a_codes: M×K codes (one per byte), a_scales: M×K/32; b likewise N×K; C: M×N bf16.
void gemm_mx_reference(MxElement a_format, const std::uint8_t* a_codes, const std::uint8_t* a_scales,
                       MxElement b_format, const std::uint8_t* b_codes, const std::uint8_t* b_scales, int M, int N,
                       int K, std::uint16_t* C);

}  // namespace tilelab::kernels
