// grouped_gemm_bf16's host.  Shape (G, M_g, N, K): G groups whose row counts
// add up to G x M_g, split unevenly from the seed in multiples of 128 (empty
// groups included), so the tile -> group mapping through the device array of
// row offsets is exercised.  Grid (N / 128, sum M / 128); arguments (C, A, B,
// row_offsets, groups, N, K).
#include <random>

#include "kernels/grouped_gemm_bf16/reference.hpp"
#include "kernels/host.hpp"

namespace tilelab::kernels {

HostLaunch grouped_gemm_bf16_host(hw::Device& d, const std::vector<long long>& shape, std::uint64_t seed) {
  const int G = static_cast<int>(shape[0]), N = static_cast<int>(shape[2]), K = static_cast<int>(shape[3]);
  const int tiles = static_cast<int>(shape[0] * shape[1] / 128);
  std::mt19937_64 rng(seed);
  std::vector<int> group_m(static_cast<std::size_t>(G), 0);
  for (int t = 0; t < tiles; ++t) group_m[rng() % static_cast<std::uint64_t>(G)] += 128;
  const std::vector<int> offsets = grouped_gemm_row_offsets(group_m);
  const int M = offsets.back();
  const std::size_t c_n = static_cast<std::size_t>(M) * N;
  const std::vector<std::uint16_t> A = random_bf16(static_cast<std::size_t>(M) * K, seed, -1.f, 1.f),
                                   B = random_bf16(static_cast<std::size_t>(G) * N * K, seed + 1, -1.f, 1.f);
  const std::uint64_t d_c = d.allocate(2 * c_n, "C"), d_a = upload(d, A, "A"), d_b = upload(d, B, "B"),
                      d_off = upload(d, offsets, "row_offsets");
  HostLaunch l;
  l.grid = {static_cast<unsigned>(N / 128), static_cast<unsigned>(M / 128), 1};
  l.block = {256, 1, 1};
  l.arguments = {d_c, d_a, d_b, d_off, static_cast<std::uint32_t>(G), static_cast<std::uint32_t>(N),
                 static_cast<std::uint32_t>(K)};
  l.flops = 2.0 * M * N * static_cast<double>(K);
  l.bytes = 2.0 * (static_cast<double>(M) * K + static_cast<double>(G) * N * K + static_cast<double>(c_n));
  l.check = [&d, d_c, c_n, A, B, offsets, N, K] {
    std::vector<std::uint16_t> ref(c_n);
    grouped_gemm_bf16_reference(A.data(), B.data(), offsets, N, K, ref.data());
    return check_bf16_output(d, d_c, c_n, ref, kGemmTolerance, kGemmToleranceWhy);
  };
  return l;
}

std::vector<HostEntry> grouped_gemm_bf16_suite_hosts() { return {{"grouped_gemm_bf16", grouped_gemm_bf16_host}}; }

}  // namespace tilelab::kernels
