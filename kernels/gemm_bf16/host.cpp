// gemm_bf16 launched in the functional emulator: C (M x N, bf16) = A (M x K,
// row-major) x B (stored N x K); one 256-work-item workgroup per 128 x 128
// tile of C, grid (N / 128, M / 128); arguments (C, A, B, M, N, K).
#include "kernels/emulated.hpp"
#include "kernels/gemm_bf16/reference.hpp"

namespace tilelab::kernels {

HostResult gemm_bf16_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed) {
  const int M = static_cast<int>(shape[0]), N = static_cast<int>(shape[1]), K = static_cast<int>(shape[2]);
  const std::size_t c_n = static_cast<std::size_t>(M) * N;
  const std::vector<std::uint16_t> A = random_bf16(static_cast<std::size_t>(M) * K, seed, -1.f, 1.f),
                                   B = random_bf16(static_cast<std::size_t>(N) * K, seed + 1, -1.f, 1.f);
  emu::GlobalMemory mem;
  const std::uint64_t d_c = mem.allocate(2 * c_n, "C"), d_a = upload(mem, A, "A"), d_b = upload(mem, B, "B");
  emu::Launch launch;
  launch.grid = {static_cast<std::uint32_t>(N / 128), static_cast<std::uint32_t>(M / 128), 1};
  launch.block = {256, 1, 1};
  launch.args = {d_c, d_a, d_b, static_cast<std::uint32_t>(M), static_cast<std::uint32_t>(N),
                 static_cast<std::uint32_t>(K)};
  HostResult r;
  r.stats = e.run(mem, launch);
  const std::vector<std::uint16_t> out = download<std::uint16_t>(mem, d_c, c_n);
  std::vector<std::uint16_t> ref(c_n);
  gemm_bf16_reference(A.data(), B.data(), M, N, K, ref.data());
  r.max_rel_error = max_rel_error_bf16(out, ref);
  r.tolerance = kGemmTolerance;
  r.tolerance_why = kGemmToleranceWhy;
  r.output = bytes_of(out);
  return r;
}

}  // namespace tilelab::kernels
