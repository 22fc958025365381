// gemm_bf16's host: C (M x N, bf16) = A (M x K, row-major) x B (stored N x K);
// one 256-work-item workgroup per 128 x 128 tile of C, grid (N / 128,
// M / 128); arguments (C, A, B, M, N, K, group_m = 0, xcd_chunk = 0: the
// grid's own workgroup order; launch files set other orders, gemm_bf16.hip).
#include "kernels/gemm_bf16/reference.hpp"
#include "kernels/host.hpp"

namespace tilelab::kernels {

HostLaunch gemm_bf16_host(hw::Device& d, const std::vector<long long>& shape, std::uint64_t seed) {
  const int M = static_cast<int>(shape[0]), N = static_cast<int>(shape[1]), K = static_cast<int>(shape[2]);
  const std::size_t c_n = static_cast<std::size_t>(M) * N;
  const std::vector<std::uint16_t> A = random_bf16(static_cast<std::size_t>(M) * K, seed, -1.f, 1.f),
                                   B = random_bf16(static_cast<std::size_t>(N) * K, seed + 1, -1.f, 1.f);
  const std::uint64_t d_c = d.allocate(2 * c_n, "C"), d_a = upload(d, A, "A"), d_b = upload(d, B, "B");
  HostLaunch l;
  l.grid = {static_cast<unsigned>(N / 128), static_cast<unsigned>(M / 128), 1};
  l.block = {256, 1, 1};
  l.arguments = {d_c, d_a, d_b, static_cast<std::uint32_t>(M), static_cast<std::uint32_t>(N),
                 static_cast<std::uint32_t>(K), std::uint32_t{0}, std::uint32_t{0}};
  l.flops = 2.0 * M * N * static_cast<double>(K);
  l.bytes = 2.0 * (static_cast<double>(M) * K + static_cast<double>(N) * K + static_cast<double>(c_n));
  l.check = [&d, d_c, c_n, A, B, M, N, K] {
    std::vector<std::uint16_t> ref(c_n);
    gemm_bf16_reference(A.data(), B.data(), M, N, K, ref.data());
    return check_bf16_output(d, d_c, c_n, ref, kGemmTolerance, kGemmToleranceWhy);
  };
  return l;
}

std::vector<HostEntry> gemm_bf16_suite_hosts() { return {{"gemm_bf16", gemm_bf16_host}}; }

}  // namespace tilelab::kernels
