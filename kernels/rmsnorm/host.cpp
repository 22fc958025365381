// rmsnorm_bf16 launched in the functional emulator: one workgroup of 256
// work-items per row; arguments (out, in, gamma, rows, hidden, eps).
#include <bit>

#include "kernels/emulated.hpp"
#include "kernels/rmsnorm/reference.hpp"

namespace tilelab::kernels {

HostResult rmsnorm_emulated(emu::Emulator& e, const std::vector<long long>& shape, std::uint64_t seed) {
  const int rows = static_cast<int>(shape[0]), hidden = static_cast<int>(shape[1]);
  const float eps = 1e-6f;
  const std::size_t n = static_cast<std::size_t>(rows) * static_cast<std::size_t>(hidden);
  const std::vector<std::uint16_t> in = random_bf16(n, seed, -2.f, 2.f),
                                   gamma = random_bf16(static_cast<std::size_t>(hidden), seed + 1, 0.5f, 1.5f);
  emu::GlobalMemory mem;
  const std::uint64_t d_out = mem.allocate(2 * n, "out"), d_in = upload(mem, in, "in"),
                      d_gamma = upload(mem, gamma, "gamma");
  emu::Launch launch;
  launch.grid = {static_cast<std::uint32_t>(rows), 1, 1};
  launch.block = {256, 1, 1};
  launch.args = {d_out, d_in, d_gamma, static_cast<std::uint32_t>(rows), static_cast<std::uint32_t>(hidden),
                 std::bit_cast<std::uint32_t>(eps)};
  HostResult r;
  r.stats = e.run(mem, launch);
  const std::vector<std::uint16_t> out = download<std::uint16_t>(mem, d_out, n);
  std::vector<std::uint16_t> ref(n);
  rmsnorm_reference(in.data(), gamma.data(), rows, hidden, eps, ref.data());
  r.max_rel_error = max_rel_error_bf16(out, ref);
  // The kernel sums squares in a tree across lanes and waves, the reference
  // in order; the f32 results differ in the last bits, which moves a bf16
  // rounding by at most one bf16 step (2^-8 relative, 2^-7 at a power of two).
  r.tolerance = 1.0 / 128;
  r.tolerance_why = "one bf16 rounding step (f32 sums in another order)";
  r.output = bytes_of(out);
  return r;
}

}  // namespace tilelab::kernels
