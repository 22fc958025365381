#include "kernels/host.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "kernels/common/formats.hpp"

namespace tilelab::kernels {

namespace {
struct Entry {
  const char* name;
  Host host;
};
const Entry kHosts[] = {
    {"rmsnorm_bf16", rmsnorm_host},
    {"gemm_bf16", gemm_bf16_host},
    {"topk_f32", topk_f32_host},
    {"topk_bf16", topk_bf16_host},
    {"grouped_gemm_bf16", grouped_gemm_bf16_host},
    {"gemm_mxfp8", gemm_mxfp8_host},
    {"gemm_mxfp4", gemm_mxfp4_host},
    {"gemm_mxfp8_32x32", gemm_mxfp8_host},  // the same arguments and reference, the 32x32x64 MFMA atom
    {"gemm_mxfp4_32x32", gemm_mxfp4_host},
    {"attention_fwd_d64", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_fwd_host(d, s, seed, 64); }},
    {"attention_fwd_d128", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_fwd_host(d, s, seed, 128); }},
    {"attention_fwd_d256", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_fwd_host(d, s, seed, 256); }},
    {"attention_bwd_d64", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_bwd_host(d, s, seed, 64); }},
    {"attention_bwd_d128", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_bwd_host(d, s, seed, 128); }},
    {"attention_bwd_tr_d64", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_bwd_host(d, s, seed, 64); }},
    {"attention_bwd_tr_d128", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_bwd_host(d, s, seed, 128); }},
    {"attention_bwd_prep_d64", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_bwd_prep_host(d, s, seed, 64); }},
    {"attention_bwd_prep_d128", [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return attention_bwd_prep_host(d, s, seed, 128); }},
#define TILELAB_MICRO(name) \
  {#name, [](hw::Device& d, const std::vector<long long>& s, std::uint64_t seed) { return micro_host(#name, d, s, seed); }}
    TILELAB_MICRO(lds_read_b32), TILELAB_MICRO(lds_read_b64), TILELAB_MICRO(lds_read_b128), TILELAB_MICRO(lds_read_b64_tr_b16),
    TILELAB_MICRO(lds_write_b32), TILELAB_MICRO(lds_write_b64), TILELAB_MICRO(lds_write_b128),
    TILELAB_MICRO(mfma_dependent_chain), TILELAB_MICRO(mfma_independent_streams), TILELAB_MICRO(pointer_chase),
    TILELAB_MICRO(stream_copy),
#undef TILELAB_MICRO
};

template <class T, class F>
double max_rel_error(const std::vector<T>& out, const std::vector<T>& ref, F to_double) {
  double scale = 0;
  for (const T& r : ref) scale = std::max(scale, std::fabs(to_double(r)));
  double floor = std::max(scale * 1e-3, 1e-30), worst = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    double o = to_double(out[i]), r = to_double(ref[i]);
    double e = (std::isnan(o) != std::isnan(r)) ? INFINITY : std::isnan(r) ? 0 : std::fabs(o - r) / std::max(std::fabs(r), floor);
    worst = std::max(worst, e);
  }
  return worst;
}
}  // namespace

double max_rel_error_bf16(const std::vector<std::uint16_t>& out, const std::vector<std::uint16_t>& ref) {
  return max_rel_error(out, ref, [](std::uint16_t b) { return static_cast<double>(bf16_to_float(b)); });
}
double max_rel_error_f32(const std::vector<float>& out, const std::vector<float>& ref) {
  return max_rel_error(out, ref, [](float f) { return static_cast<double>(f); });
}

std::vector<std::uint16_t> random_bf16(std::size_t n, std::uint64_t seed, float lo, float hi) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<std::uint16_t> v(n);
  for (auto& x : v) x = float_to_bf16(d(rng));
  return v;
}

Host find_host(const std::string& kernel) {
  for (const Entry& e : kHosts)
    if (kernel == e.name) return e.host;
  return nullptr;
}

std::vector<std::string> hosted_kernels() {
  std::vector<std::string> out;
  for (const Entry& e : kHosts) out.push_back(e.name);
  return out;
}

Checked check_bf16_output(hw::Device& d, std::uint64_t address, std::size_t n, const std::vector<std::uint16_t>& ref,
                          double tolerance, const char* why) {
  const std::vector<std::uint16_t> out = download<std::uint16_t>(d, address, n);
  Checked c;
  c.max_rel_error = max_rel_error_bf16(out, ref);
  c.tolerance = tolerance;
  c.tolerance_why = why;
  c.output = bytes_of(out);
  return c;
}

LoadedPass load_pass(hw::Device& d, const std::vector<std::uint8_t>& code_object, hw::Kernel main, const HostLaunch& launch) {
  LoadedPass p;
  for (const KernelLaunch& b : launch.before) p.before.push_back(d.load_kernel(code_object, b.kernel));
  p.main = std::move(main);
  return p;
}

void launch_pass(hw::Device& d, const LoadedPass& pass, const HostLaunch& launch) {
  for (std::size_t i = 0; i < launch.before.size(); ++i) {
    const KernelLaunch& b = launch.before[i];
    d.launch(pass.before[i], b.grid, b.block, 0, b.arguments);
  }
  d.launch(pass.main, launch.grid, launch.block, launch.dynamic_lds, launch.arguments);
}

}  // namespace tilelab::kernels
