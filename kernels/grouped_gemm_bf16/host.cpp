// grouped_gemm_bf16 launched in the functional emulator.  Shape (G, M_g, N,
// K): G groups whose row counts add up to G x M_g, split unevenly from the
// seed in multiples of 128 (empty groups included), so the tile -> group
// mapping through the device array of row offsets is exercised.  Grid
// (N / 128, sum M / 128); arguments (C, A, B, row_offsets, groups, N, K).
#include <cstring>
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
  const std::size_t a_n = static_cast<std::size_t>(M) * K, b_n = static_cast<std::size_t>(G) * N * K,
                    c_n = static_cast<std::size_t>(M) * N;
  std::vector<std::uint16_t> A = random_bf16(a_n, seed, -1.f, 1.f), B = random_bf16(b_n, seed + 1, -1.f, 1.f);
  emu::GlobalMemory mem;
  std::uint64_t d_c = mem.allocate(2 * c_n, "C"), d_a = mem.allocate(2 * a_n, "A"), d_b = mem.allocate(2 * b_n, "B"),
                d_off = mem.allocate(4 * offsets.size(), "row_offsets");
  mem.write(d_a, A.data(), 2 * a_n);
  mem.write(d_b, B.data(), 2 * b_n);
  mem.write(d_off, offsets.data(), 4 * offsets.size());
  emu::Launch launch;
  launch.grid = {static_cast<std::uint32_t>(N / 128), static_cast<std::uint32_t>(M / 128), 1};
  launch.block = {256, 1, 1};
  launch.args = {d_c, d_a, d_b, d_off, static_cast<std::uint32_t>(G), static_cast<std::uint32_t>(N),
                 static_cast<std::uint32_t>(K)};
  HostResult r;
  r.stats = e.run(mem, launch);
  std::vector<std::uint16_t> out(c_n), ref(c_n);
  mem.read(d_c, out.data(), 2 * c_n);
  grouped_gemm_bf16_reference(A.data(), B.data(), offsets, N, K, ref.data());
  r.max_rel_error = max_rel_error_bf16(out, ref);
  r.tolerance = 1.0 / 64;
  r.tolerance_why = "one bf16 step relative to the output scale (f32 sums in another order)";
  r.output.resize(2 * c_n);
  std::memcpy(r.output.data(), out.data(), 2 * c_n);
  return r;
}

}  // namespace tilelab::kernels
