#include "kernels/gemm_mxfp8/reference.hpp"

#include "kernels/common/k_order_gemm.hpp"
#include "kernels/common/mx_formats.hpp"

namespace tilelab::kernels {

std::string mx_gemm_shape_error(long long M, long long N, long long K) {
  if (M <= 0 || N <= 0 || K <= 0) return "M, N and K must be positive";
  if (M % 128) return "M = " + std::to_string(M) + " breaks M % 128 == 0";
  if (N % 128) return "N = " + std::to_string(N) + " breaks N % 128 == 0";
  if (K % 128) return "K = " + std::to_string(K) + " breaks K % 128 == 0 (one MFMA K step, four 32-value scale blocks)";
  return "";
}

namespace {
// Element (r, k) of a quantized operand: its code's value times its block's scale.
float dequantized(MxElement f, const std::uint8_t* codes, const std::uint8_t* scales, int K, int r, int k) {
  return decode(f, codes[static_cast<long>(r) * K + k]) * decode_e8m0(scales[static_cast<long>(r) * (K / 32) + k / 32]);
}
}  // namespace

// The plain triple loop's result, bit for bit (gemm_in_k_order).
void gemm_mx_reference(MxElement a_format, const std::uint8_t* a_codes, const std::uint8_t* a_scales,
                       MxElement b_format, const std::uint8_t* b_codes, const std::uint8_t* b_scales, int M, int N,
                       int K, std::uint16_t* C) {
  gemm_in_k_order(
      M, N, K,
      [&](int m, float* row) {
        for (int k = 0; k < K; ++k) row[k] = dequantized(a_format, a_codes, a_scales, K, m, k);
      },
      [&](int n, int k) { return dequantized(b_format, b_codes, b_scales, K, n, k); }, C);
}

}  // namespace tilelab::kernels
