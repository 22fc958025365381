// gemm_mxfp8 and gemm_mxfp4 launched in the functional emulator (gfx950):
// A (M x K) and B (N x K) drawn from the seed, quantized to MX blocks
// (kernels/common/mx_formats: E4M3 or E2M1 codes, one E8M0 scale per 32 K;
// FP4 packed two per byte, low nibble first), C (M x N, bf16).  Grid
// (N / 128, M / 128) of 256 work-items; arguments (C, A, scale_a, B, scale_b, M, N, K).
#include <random>

#include "kernels/common/mx_formats.hpp"
#include "kernels/emulated.hpp"
#include "kernels/gemm_mxfp8/reference.hpp"

namespace tilelab::kernels {

namespace {

HostResult mx_gemm_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed, MxElement f) {
  const int M = static_cast<int>(shape[0]), N = static_cast<int>(shape[1]), K = static_cast<int>(shape[2]);
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> d(0.f, 1.f);
  auto matrix = [&](int rows, std::vector<std::uint8_t>& codes, std::vector<std::uint8_t>& scales) {
    std::vector<float> x(static_cast<std::size_t>(rows) * K);
    for (auto& v : x) v = d(rng);
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
  emu::GlobalMemory mem;
  const std::uint64_t d_c = mem.allocate(2 * c_n, "C"), d_a = upload(mem, device_bytes(a_codes), "A"),
                      d_sa = upload(mem, a_scales, "scale_a"), d_b = upload(mem, device_bytes(b_codes), "B"),
                      d_sb = upload(mem, b_scales, "scale_b");
  emu::Launch launch;
  launch.grid = {static_cast<std::uint32_t>(N / 128), static_cast<std::uint32_t>(M / 128), 1};
  launch.block = {256, 1, 1};
  launch.args = {d_c, d_a, d_sa, d_b, d_sb, static_cast<std::uint32_t>(M), static_cast<std::uint32_t>(N),
                 static_cast<std::uint32_t>(K)};
  HostResult r;
  r.stats = e.run(mem, launch);
  const std::vector<std::uint16_t> out = download<std::uint16_t>(mem, d_c, c_n);
  std::vector<std::uint16_t> ref(c_n);
  gemm_mx_reference(f, a_codes.data(), a_scales.data(), f, b_codes.data(), b_scales.data(), M, N, K, ref.data());
  r.max_rel_error = max_rel_error_bf16(out, ref);
  r.tolerance = kGemmTolerance;
  r.tolerance_why = kGemmToleranceWhy;
  r.output = bytes_of(out);
  return r;
}

}  // namespace

HostResult gemm_mxfp8_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed) {
  return mx_gemm_emulated(e, shape, seed, MxElement::E4M3);
}
HostResult gemm_mxfp4_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed) {
  return mx_gemm_emulated(e, shape, seed, MxElement::E2M1);
}

}  // namespace tilelab::kernels
