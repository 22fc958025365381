// grouped_gemm_bf16 launched in the functional emulator.  Shape (G, M_g, N,
// K): G groups whose row counts add up to G x M_g, split unevenly from the
// seed in multiples of 128 (empty groups included), so the tile -> group
// mapping through the device array of row offsets is exercised.  Grid
// (N / 128, sum M / 128); arguments (C, A, B, row_offsets, groups, N, K).
#include <random>

#include "kernels/emulated.hpp"
#include "kernels/grouped_gemm_bf16/reference.hpp"

namespace tilelab::kernels {

HostResult grouped_gemm_bf16_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed) {
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
  emu::GlobalMemory mem;
  const std::uint64_t d_c = mem.allocate(2 * c_n, "C"), d_a = upload(mem, A, "A"), d_b = upload(mem, B, "B"),
                      d_off = upload(mem, offsets, "row_offsets");
  emu::Launch launch;
  launch.grid = {static_cast<std::uint32_t>(N / 128), static_cast<std::uint32_t>(M / 128), 1};
  launch.block = {256, 1, 1};
  launch.args = {d_c, d_a, d_b, d_off, static_cast<std::uint32_t>(G), static_cast<std::uint32_t>(N),
                 static_cast<std::uint32_t>(K)};
  HostResult r;
  r.stats = e.run(mem, launch);
  const std::vector<std::uint16_t> out = download<std::uint16_t>(mem, d_c, c_n);
  std::vector<std::uint16_t> ref(c_n);
  grouped_gemm_bf16_reference(A.data(), B.data(), offsets, N, K, ref.data());
  r.max_rel_error = max_rel_error_bf16(out, ref);
  r.tolerance = kGemmTolerance;
  r.tolerance_why = kGemmToleranceWhy;
  r.output = bytes_of(out);
  return r;
}

}  // namespace tilelab::kernels
