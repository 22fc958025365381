// topk_f32 / topk_bf16's host: one workgroup of
// 256 work-items per row; arguments (in, values, indices, rows, n, k).
// Inputs are drawn from a small set of values with NaNs mixed in, so ties and
// NaNs exercise the ordering rules (NaN first, ties to the lower index).
#include <cmath>
#include <cstring>
#include <random>

#include "kernels/common/formats.hpp"
#include "kernels/host.hpp"
#include "kernels/topk/reference.hpp"

namespace tilelab::kernels {

namespace {

HostLaunch topk_host(hw::Device& d, const std::vector<long long>& shape, std::uint64_t seed, bool bf16) {
  const int rows = static_cast<int>(shape[0]), n = static_cast<int>(shape[1]), k = static_cast<int>(shape[2]);
  const std::size_t count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(n);
  std::mt19937_64 rng(seed);
  std::vector<float> in(count);
  for (auto& x : in) {
    std::uint64_t r = rng() % 1024;
    x = r == 0 ? NAN : static_cast<float>(static_cast<int>(r % 200) - 100) * 0.25f;
  }
  const std::size_t elem = bf16 ? 2 : 4;
  std::vector<std::uint8_t> bytes(count * elem);
  for (std::size_t i = 0; i < count; ++i) {
    if (bf16) {
      std::uint16_t b = float_to_bf16(in[i]);
      in[i] = bf16_to_float(b);  // the reference ranks what the kernel sees
      std::memcpy(&bytes[2 * i], &b, 2);
    } else {
      std::memcpy(&bytes[4 * i], &in[i], 4);
    }
  }
  const std::size_t outs = static_cast<std::size_t>(rows) * static_cast<std::size_t>(k);
  const std::uint64_t d_in = upload(d, bytes, "in"), d_values = d.allocate(outs * elem, "values"),
                      d_indices = d.allocate(outs * 4, "indices");
  HostLaunch l;
  l.grid = {static_cast<unsigned>(rows), 1, 1};
  l.block = {256, 1, 1};
  l.arguments = {d_in, d_values, d_indices, static_cast<std::uint32_t>(rows), static_cast<std::uint32_t>(n),
                 static_cast<std::uint32_t>(k)};
  l.bytes = static_cast<double>(bytes.size() + outs * (elem + 4));
  l.check = [&d, d_values, d_indices, outs, elem, bf16, in, rows, n, k] {
  std::vector<std::uint8_t> value_bytes(outs * elem);
  std::vector<int> indices(outs), ref_indices(outs);
  std::vector<float> values(outs), ref_values(outs);
  d.copy_to_host(value_bytes.data(), d_values, value_bytes.size());
  d.copy_to_host(indices.data(), d_indices, outs * 4);
  for (std::size_t i = 0; i < outs; ++i) {
    if (bf16) {
      std::uint16_t b;
      std::memcpy(&b, &value_bytes[2 * i], 2);
      values[i] = bf16_to_float(b);
    } else {
      std::memcpy(&values[i], &value_bytes[4 * i], 4);
    }
  }
  topk_reference(in.data(), rows, n, k, ref_values.data(), ref_indices.data());
  // Selection is exact: the same values (NaN where NaN) and the same indices.
  Checked r;
  r.max_rel_error = indices == ref_indices ? max_rel_error_f32(values, ref_values) : INFINITY;
  r.tolerance = 0;
  r.tolerance_why = "exact: selection moves values, it computes none";
  r.output = value_bytes;
  r.output.insert(r.output.end(), reinterpret_cast<const std::uint8_t*>(indices.data()),
                  reinterpret_cast<const std::uint8_t*>(indices.data() + outs));
  return r;
  };
  return l;
}

}  // namespace

HostLaunch topk_f32_host(hw::Device& d, const std::vector<long long>& shape, std::uint64_t seed) {
  return topk_host(d, shape, seed, false);
}
HostLaunch topk_bf16_host(hw::Device& d, const std::vector<long long>& shape, std::uint64_t seed) {
  return topk_host(d, shape, seed, true);
}

std::vector<HostEntry> topk_suite_hosts() { return {{"topk_f32", topk_f32_host}, {"topk_bf16", topk_bf16_host}}; }

}  // namespace tilelab::kernels
