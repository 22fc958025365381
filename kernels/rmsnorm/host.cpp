// rmsnorm_bf16's host: one workgroup of 256 work-items per row; arguments
// (out, in, gamma, rows, hidden, eps).
#include <bit>

#include "kernels/host.hpp"
#include "kernels/rmsnorm/reference.hpp"

namespace tilelab::kernels {

HostLaunch rmsnorm_host(hw::Device& d, const std::vector<long long>& shape, std::uint64_t seed) {
  const int rows = static_cast<int>(shape[0]), hidden = static_cast<int>(shape[1]);
  const float eps = 1e-6f;
  const std::size_t n = static_cast<std::size_t>(rows) * static_cast<std::size_t>(hidden);
  const std::vector<std::uint16_t> in = random_bf16(n, seed, -2.f, 2.f),
                                   gamma = random_bf16(static_cast<std::size_t>(hidden), seed + 1, 0.5f, 1.5f);
  const std::uint64_t d_out = d.allocate(2 * n, "out"), d_in = upload(d, in, "in"), d_gamma = upload(d, gamma, "gamma");
  HostLaunch l;
  l.grid = {static_cast<unsigned>(rows), 1, 1};
  l.block = {256, 1, 1};
  l.arguments = {d_out, d_in, d_gamma, static_cast<std::uint32_t>(rows), static_cast<std::uint32_t>(hidden),
                 std::bit_cast<std::uint32_t>(eps)};
  l.bytes = static_cast<double>(2 * n + 2 * n + 2 * static_cast<std::size_t>(hidden));  // in, out, gamma
  l.flops = 4.0 * static_cast<double>(n);  // square-add, then scale twice, per element
  l.check = [&d, d_out, n, in, gamma, rows, hidden, eps] {
    std::vector<std::uint16_t> ref(n);
    rmsnorm_reference(in.data(), gamma.data(), rows, hidden, eps, ref.data());
    // The kernel sums squares in a tree across lanes and waves, the reference
    // in order; the f32 results differ in the last bits, which moves a bf16
    // rounding by at most one bf16 step (2^-8 relative, 2^-7 at a power of two).
    return check_bf16_output(d, d_out, n, ref, 1.0 / 128, "one bf16 rounding step (f32 sums in another order)");
  };
  return l;
}

std::vector<HostEntry> rmsnorm_suite_hosts() { return {{"rmsnorm_bf16", rmsnorm_host}}; }

}  // namespace tilelab::kernels
