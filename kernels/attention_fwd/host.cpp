// attention_fwd_d64 / _d128 / _d256's host: Q, K, V
// drawn from the seed (bf16 in [-1, 1]), grid (S / 128, BH) (S / 64 for D = 256) of 512
// work-items; arguments (O, lse, Q, K, V, S, causal).
//
// Error: max |O - O_ref| / max |O_ref| over the head's outputs (attention
// outputs are averages of V rows, many near zero, so the output's own scale
// is the yardstick), and the log-sum-exp's |lse - lse_ref| / max(1, |lse_ref|);
// the larger of the two is reported.
#include <cmath>
#include <cstring>

#include "kernels/attention_fwd/reference.hpp"
#include "kernels/common/formats.hpp"
#include "kernels/host.hpp"

namespace tilelab::kernels {

HostLaunch attention_fwd_host(hw::Device& d, const std::vector<long long>& shape, std::uint64_t seed, int D) {
  const int BH = static_cast<int>(shape[0]), S = static_cast<int>(shape[1]);
  const bool causal = shape[2] != 0;
  const std::size_t n = static_cast<std::size_t>(BH) * static_cast<std::size_t>(S) * static_cast<std::size_t>(D);
  const std::size_t rows = static_cast<std::size_t>(BH) * static_cast<std::size_t>(S);
  std::vector<std::uint16_t> Q = random_bf16(n, seed, -1.f, 1.f), K = random_bf16(n, seed + 1, -1.f, 1.f),
                             V = random_bf16(n, seed + 2, -1.f, 1.f);
  const std::uint64_t d_o = d.allocate(2 * n, "O"), d_lse = d.allocate(4 * rows, "lse"), d_q = upload(d, Q, "Q"),
                      d_k = upload(d, K, "K"), d_v = upload(d, V, "V");
  HostLaunch l;
  const int q_rows = D == 256 ? 64 : 128;  // query rows per workgroup (D = 256 splits D across wave pairs)
  l.grid = {static_cast<unsigned>(S / q_rows), static_cast<unsigned>(BH), 1};
  l.block = {512, 1, 1};
  l.arguments = {d_o, d_lse, d_q, d_k, d_v, static_cast<std::uint32_t>(S), causal ? 1u : 0u};
  // Q·K^T and P·V, 2 flops per multiply-add each; causal masking halves them.
  l.flops = 4.0 * BH * static_cast<double>(S) * S * D * (causal ? 0.5 : 1.0);
  l.bytes = 2.0 * 4 * static_cast<double>(n) + 4.0 * static_cast<double>(rows);
  l.check = [&d, d_o, d_lse, n, rows, Q, K, V, BH, S, D, causal] {
  std::vector<std::uint16_t> out(n);
  std::vector<float> lse(rows), ref(n), ref_lse(rows);
  d.copy_to_host(out.data(), d_o, 2 * n);
  d.copy_to_host(lse.data(), d_lse, 4 * rows);
  attention_fwd_reference(Q.data(), K.data(), V.data(), BH, S, D, causal, ref.data(), ref_lse.data());
  double scale = 0, worst = 0;
  for (float x : ref) scale = std::max(scale, static_cast<double>(std::fabs(x)));
  for (std::size_t k = 0; k < n; ++k) {
    double o = bf16_to_float(out[k]);
    worst = std::max(worst, std::isnan(o) ? INFINITY : std::fabs(o - ref[k]) / scale);
  }
  for (std::size_t k = 0; k < rows; ++k) {
    double err = std::fabs(static_cast<double>(lse[k]) - ref_lse[k]) / std::max(1.0, std::fabs(static_cast<double>(ref_lse[k])));
    worst = std::max(worst, std::isnan(lse[k]) ? INFINITY : err);
  }
  Checked r;
  r.max_rel_error = worst;
  // P is rounded to bf16 before the P·V MFMA (2^-9 relative per weight) and
  // O to bf16 at the end (2^-9): against the output's scale 2^-6 holds them
  // with margin; the lse is fp32 throughout.
  r.tolerance = 1.0 / 64;
  r.tolerance_why = "bf16 P and O roundings, against the output's scale (lse: fp32)";
  r.output.resize(2 * n + 4 * rows);
  std::memcpy(r.output.data(), out.data(), 2 * n);
  std::memcpy(r.output.data() + 2 * n, lse.data(), 4 * rows);
  return r;
  };
  return l;
}

std::vector<HostEntry> attention_fwd_suite_hosts() {
  return {
      {"attention_fwd_d64", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_fwd_host(d, s, seed, 64); }},
      {"attention_fwd_d128", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_fwd_host(d, s, seed, 128); }},
      {"attention_fwd_d256", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_fwd_host(d, s, seed, 256); }},
  };
}

}  // namespace tilelab::kernels
