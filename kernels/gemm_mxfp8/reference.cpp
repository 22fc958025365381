#include "kernels/gemm_mxfp8/reference.hpp"

#include <vector>

#include "kernels/common/formats.hpp"

namespace tilelab::kernels {

std::string mx_gemm_shape_error(long long M, long long N, long long K) {
  if (M <= 0 || N <= 0 || K <= 0) return "M, N and K must be positive";
  if (M % 128) return "M = " + std::to_string(M) + " breaks M % 128 == 0";
  if (N % 128) return "N = " + std::to_string(N) + " breaks N % 128 == 0";
  if (K % 128) return "K = " + std::to_string(K) + " breaks K % 128 == 0 (one MFMA K step, four 32-value scale blocks)";
  return "";
}

namespace {
std::vector<float> dequantize(MxElement f, const std::uint8_t* codes, const std::uint8_t* scales, int rows, int K) {
  std::vector<float> v(static_cast<std::size_t>(rows) * K);
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < K; ++k)
      v[static_cast<std::size_t>(r) * K + k] =
          decode(f, codes[static_cast<long>(r) * K + k]) * decode_e8m0(scales[static_cast<long>(r) * (K / 32) + k / 32]);
  return v;
}
}  // namespace

void gemm_mx_reference(MxElement a_format, const std::uint8_t* a_codes, const std::uint8_t* a_scales,
                       MxElement b_format, const std::uint8_t* b_codes, const std::uint8_t* b_scales, int M, int N,
                       int K, std::uint16_t* C) {
  const auto a = dequantize(a_format, a_codes, a_scales, M, K);
  const auto b = dequantize(b_format, b_codes, b_scales, N, K);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float acc = 0.f;
      for (int k = 0; k < K; ++k) acc += a[static_cast<std::size_t>(m) * K + k] * b[static_cast<std::size_t>(n) * K + k];
      C[static_cast<long>(m) * N + n] = float_to_bf16(acc);
    }
}

}  // namespace tilelab::kernels
