// attention_bwd_d64 / _d128's host: Q, K, V and dO drawn from the seed (bf16
// in [-1, 1]); O and the log-sum-exp from the forward's CPU reference (O
// rounded to bf16, as a forward kernel would hand it over; lse f32).  The
// pass: attention_bwd_prep_dD (delta; grid ceil(BH·S/16) of 256), then
// attention_bwd_dD (grid (2·ceil(S/64), BH) of 256: the key blocks, then the
// query blocks).
//
// Error: for each of dQ, dK, dV, max |out - ref| / max |ref| over the whole
// tensor (the output's own scale, as for the forward: many gradients are near
// zero); the largest of the three is reported.
#include <cmath>
#include <cstring>

#include "kernels/attention_bwd/reference.hpp"
#include "kernels/attention_fwd/reference.hpp"
#include "kernels/common/formats.hpp"
#include "kernels/host.hpp"

namespace tilelab::kernels {

HostLaunch attention_bwd_host(hw::Device& d, const std::vector<long long>& shape, std::uint64_t seed, int D) {
  const int BH = static_cast<int>(shape[0]), S = static_cast<int>(shape[1]);
  const bool causal = shape[2] != 0;
  const std::size_t n = static_cast<std::size_t>(BH) * static_cast<std::size_t>(S) * static_cast<std::size_t>(D);
  const std::size_t rows = static_cast<std::size_t>(BH) * static_cast<std::size_t>(S);
  std::vector<std::uint16_t> Q = random_bf16(n, seed, -1.f, 1.f), K = random_bf16(n, seed + 1, -1.f, 1.f),
                             V = random_bf16(n, seed + 2, -1.f, 1.f), dO = random_bf16(n, seed + 3, -1.f, 1.f);
  std::vector<float> O_exact(n), lse(rows);
  attention_fwd_reference(Q.data(), K.data(), V.data(), BH, S, D, causal, O_exact.data(), lse.data());
  std::vector<std::uint16_t> O(n);
  std::vector<float> O_given(n);
  for (std::size_t k = 0; k < n; ++k) O[k] = float_to_bf16(O_exact[k]), O_given[k] = bf16_to_float(O[k]);

  const std::uint64_t d_dq = d.allocate(2 * n, "dQ"), d_dk = d.allocate(2 * n, "dK"), d_dv = d.allocate(2 * n, "dV"),
                      d_q = upload(d, Q, "Q"), d_k = upload(d, K, "K"), d_v = upload(d, V, "V"), d_o = upload(d, O, "O"),
                      d_do = upload(d, dO, "dO"), d_lse = upload(d, lse, "lse"), d_delta = d.allocate(4 * rows, "delta");
  const auto S32 = static_cast<std::uint32_t>(S), blocks = static_cast<unsigned>((S + 63) / 64);
  HostLaunch l;
  l.before = {{"attention_bwd_prep_d" + std::to_string(D),
               {static_cast<unsigned>((rows + 15) / 16), 1, 1},
               {256, 1, 1},
               {d_delta, d_o, d_do, static_cast<std::uint32_t>(rows)}}};
  l.grid = {2 * blocks, static_cast<unsigned>(BH), 1};
  l.block = {256, 1, 1};
  l.arguments = {d_dq, d_dk, d_dv, d_q, d_k, d_v, d_do, d_lse, d_delta, S32, causal ? 1u : 0u};
  // The five products of the backward pass (S, dP, dV, dK, dQ), 2 flops per
  // multiply-add; causal masking halves them.  The dQ pass's recomputation is
  // not counted: TFLOP/s are the algorithm's.
  l.flops = 10.0 * BH * static_cast<double>(S) * S * D * (causal ? 0.5 : 1.0);
  l.bytes = 2.0 * 8 * static_cast<double>(n) + 8.0 * static_cast<double>(rows);
  l.check = [&d, d_dq, d_dk, d_dv, n, Q, K, V, O_given, dO, lse, BH, S, D, causal] {
    std::vector<double> ref_q(n), ref_k(n), ref_v(n);
    attention_bwd_reference(Q.data(), K.data(), V.data(), O_given.data(), dO.data(), lse.data(), BH, S, D, causal,
                            ref_q.data(), ref_k.data(), ref_v.data());
    Checked r;
    r.output.resize(6 * n);
    double worst = 0;
    int part = 0;
    for (auto [address, ref] : {std::pair{d_dq, &ref_q}, std::pair{d_dk, &ref_k}, std::pair{d_dv, &ref_v}}) {
      const std::vector<std::uint16_t> out = download<std::uint16_t>(d, address, n);
      std::memcpy(r.output.data() + 2 * n * static_cast<std::size_t>(part++), out.data(), 2 * n);
      double scale = 0;
      for (double x : *ref) scale = std::max(scale, std::fabs(x));
      for (std::size_t k = 0; k < n; ++k) {
        const double o = bf16_to_float(out[k]);
        worst = std::max(worst, std::isnan(o) ? INFINITY : std::fabs(o - (*ref)[k]) / std::max(scale, 1e-30));
      }
    }
    r.max_rel_error = worst;
    // P and dS are rounded to bf16 before their MFMAs (2^-9 relative each,
    // errors that do not line up in sign over the sum) and the gradients to
    // bf16 at the end (2^-9 of each value): two bf16 steps of the gradient's
    // scale, 2^-7, holds them; the runs measure at most 0.0039.
    r.tolerance = 1.0 / 128;
    r.tolerance_why = "bf16 P, dS and output roundings, against each gradient's scale";
    return r;
  };
  return l;
}

// attention_bwd_prep_dD alone: O and dO drawn from the seed, delta against
// the double-precision row sums, on the output's scale.
HostLaunch attention_bwd_prep_host(hw::Device& d, const std::vector<long long>& shape, std::uint64_t seed, int D) {
  const std::size_t rows = static_cast<std::size_t>(shape[0]) * static_cast<std::size_t>(shape[1]);
  const std::size_t n = rows * static_cast<std::size_t>(D);
  std::vector<std::uint16_t> O = random_bf16(n, seed, -1.f, 1.f), dO = random_bf16(n, seed + 1, -1.f, 1.f);
  const std::uint64_t d_delta = d.allocate(4 * rows, "delta"), d_o = upload(d, O, "O"), d_do = upload(d, dO, "dO");
  HostLaunch l;
  l.grid = {static_cast<unsigned>((rows + 15) / 16), 1, 1};
  l.block = {256, 1, 1};
  l.arguments = {d_delta, d_o, d_do, static_cast<std::uint32_t>(rows)};
  l.flops = 2.0 * static_cast<double>(n);
  l.bytes = 4.0 * static_cast<double>(n) + 4.0 * static_cast<double>(rows);
  l.check = [&d, d_delta, rows, O, dO, D] {
    const std::vector<float> out = download<float>(d, d_delta, rows);
    std::vector<double> ref(rows, 0.0);
    double scale = 0, worst = 0;
    for (std::size_t r = 0; r < rows; ++r) {
      for (int e = 0; e < D; ++e) {
        const std::size_t at = r * static_cast<std::size_t>(D) + static_cast<std::size_t>(e);
        ref[r] += static_cast<double>(bf16_to_float(O[at])) * bf16_to_float(dO[at]);
      }
      scale = std::max(scale, std::fabs(ref[r]));
    }
    for (std::size_t r = 0; r < rows; ++r)
      worst = std::max(worst, std::isnan(out[r]) ? INFINITY : std::fabs(out[r] - ref[r]) / std::max(scale, 1e-30));
    Checked c;
    c.max_rel_error = worst;
    // Each bf16 x bf16 product is exact in f32; D of them summed in f32 in
    // another order round by at most D ulps of the row's largest partial
    // sum (<= D/4 here in magnitude, a few times the output scale): 2^-16.
    c.tolerance = 1.0 / 65536;
    c.tolerance_why = "f32 sums of D exact bf16 products in another order, against the output's scale";
    c.output = bytes_of(out);
    return c;
  };
  return l;
}

std::vector<HostEntry> attention_bwd_suite_hosts() {
  return {
      {"attention_bwd_d64", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_bwd_host(d, s, seed, 64); }},
      {"attention_bwd_d128", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_bwd_host(d, s, seed, 128); }},
      {"attention_bwd_tr_d64", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_bwd_host(d, s, seed, 64); }},
      {"attention_bwd_tr_d128", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_bwd_host(d, s, seed, 128); }},
      {"attention_bwd_prep_d64", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_bwd_prep_host(d, s, seed, 64); }},
      {"attention_bwd_prep_d128", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_bwd_prep_host(d, s, seed, 128); }},
  };
}

}  // namespace tilelab::kernels
