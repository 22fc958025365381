// gemm_mxfp8 and gemm_mxfp4's host (gfx950):
// A (M x K) and B (N x K) drawn from the seed, quantized to MX blocks
// (kernels/common/mx_formats: E4M3 or E2M1 codes, one E8M0 scale per 32 K;
// FP4 packed two per byte, low nibble first), C (M x N, bf16).  Grid
// (N / 128, M / 128) of 256 work-items; arguments (C, A, scale_a, B, scale_b, M, N, K).
#include <random>

#include "kernels/common/mx_formats.hpp"
#include "kernels/host.hpp"
#include "kernels/gemm_mxfp8/reference.hpp"

namespace tilelab::kernels {

namespace {

HostLaunch mx_gemm_host(hw::Device& d, const std::vector<long long>& shape, std::uint64_t seed, MxElement f) {
  const int M = static_cast<int>(shape[0]), N = static_cast<int>(shape[1]), K = static_cast<int>(shape[2]);
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal(0.f, 1.f);
  auto matrix = [&](int rows, std::vector<std::uint8_t>& codes, std::vector<std::uint8_t>& scales) {
    std::vector<float> x(static_cast<std::size_t>(rows) * K);
    for (auto& v : x) v = normal(rng);
    codes.resize(x.size());
    scales.resize(x.size() / 32);
    quantize_mx(f, x.data(), rows, K, codes.data(), scales.data());
  };
  std::vector<std::uint8_t> a_codes, a_scales, b_codes, b_scales;
  matrix(M, a_codes, a_scales);
  matrix(N, b_codes, b_scales);
  auto device_bytes = [&](const std::vector<std::uint8_t>& codes) {
    if (bits_of(f) == 8) return codes;
    std::vector<std::uint8_t> packed(codes.size() / 2);
    pack_fp4(codes.data(), codes.size(), packed.data());
    return packed;
  };
  const std::size_t c_n = static_cast<std::size_t>(M) * N;
  const std::uint64_t d_c = d.allocate(2 * c_n, "C"), d_a = upload(d, device_bytes(a_codes), "A"),
                      d_sa = upload(d, a_scales, "scale_a"), d_b = upload(d, device_bytes(b_codes), "B"),
                      d_sb = upload(d, b_scales, "scale_b");
  HostLaunch l;
  l.grid = {static_cast<unsigned>(N / 128), static_cast<unsigned>(M / 128), 1};
  l.block = {256, 1, 1};
  l.arguments = {d_c, d_a, d_sa, d_b, d_sb, static_cast<std::uint32_t>(M), static_cast<std::uint32_t>(N),
                 static_cast<std::uint32_t>(K)};
  l.flops = 2.0 * M * N * static_cast<double>(K);
  l.bytes = static_cast<double>(device_bytes(a_codes).size() + device_bytes(b_codes).size() + a_scales.size() +
                                b_scales.size() + 2 * c_n);
  l.check = [&d, d_c, c_n, f, a_codes, a_scales, b_codes, b_scales, M, N, K] {
  std::vector<std::uint16_t> ref(c_n);
  gemm_mx_reference(f, a_codes.data(), a_scales.data(), f, b_codes.data(), b_scales.data(), M, N, K, ref.data());
  return check_bf16_output(d, d_c, c_n, ref, kGemmTolerance, kGemmToleranceWhy);
  };
  return l;
}

}  // namespace

HostLaunch gemm_mxfp8_host(hw::Device& d, const std::vector<long long>& shape, std::uint64_t seed) {
  return mx_gemm_host(d, shape, seed, MxElement::E4M3);
}
HostLaunch gemm_mxfp4_host(hw::Device& d, const std::vector<long long>& shape, std::uint64_t seed) {
  return mx_gemm_host(d, shape, seed, MxElement::E2M1);
}

}  // namespace tilelab::kernels
