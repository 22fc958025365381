// gemm_bf16 launched in the functional emulator: C (M x N, bf16) = A (M x K,
// row-major) x B (stored N x K); one 256-work-item workgroup per 128 x 128
// tile of C, grid (N / 128, M / 128); arguments (C, A, B, M, N, K).
#include <cstring>

#include "kernels/emulated.hpp"
#include "kernels/gemm_bf16/reference.hpp"

namespace tilelab::kernels {

HostResult gemm_bf16_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed) {
  const int M = static_cast<int>(shape[0]), N = static_cast<int>(shape[1]), K = static_cast<int>(shape[2]);
  const std::size_t a_n = static_cast<std::size_t>(M) * K, b_n = static_cast<std::size_t>(N) * K,
                    c_n = static_cast<std::size_t>(M) * N;
  std::vector<std::uint16_t> A = random_bf16(a_n, seed, -1.f, 1.f), B = random_bf16(b_n, seed + 1, -1.f, 1.f);
  emu::GlobalMemory mem;
  std::uint64_t d_c = mem.allocate(2 * c_n, "C"), d_a = mem.allocate(2 * a_n, "A"), d_b = mem.allocate(2 * b_n, "B");
  mem.write(d_a, A.data(), 2 * a_n);
  mem.write(d_b, B.data(), 2 * b_n);
  emu::Launch launch;
  launch.grid = {static_cast<std::uint32_t>(N / 128), static_cast<std::uint32_t>(M / 128), 1};
  launch.block = {256, 1, 1};
  launch.args = {d_c, d_a, d_b, static_cast<std::uint32_t>(M), static_cast<std::uint32_t>(N),
                 static_cast<std::uint32_t>(K)};
  HostResult r;
  r.stats = e.run(mem, launch);
  std::vector<std::uint16_t> out(c_n), ref(c_n);
  mem.read(d_c, out.data(), 2 * c_n);
  gemm_bf16_reference(A.data(), B.data(), M, N, K, ref.data());
  r.max_rel_error = max_rel_error_bf16(out, ref);
  // f32 accumulation in another order (per MFMA, then across K steps) than
  // the reference's; with |a|,|b| <= 1 the sums' difference stays far below
  // one bf16 step of the output scale, so the rounding moves by at most one step.
  r.tolerance = 1.0 / 64;
  r.tolerance_why = "one bf16 step relative to the output scale (f32 sums in another order)";
  r.output.resize(2 * c_n);
  std::memcpy(r.output.data(), out.data(), 2 * c_n);
  return r;
}

}  // namespace tilelab::kernels
