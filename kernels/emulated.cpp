#include "kernels/emulated.hpp"

#include <cmath>
#include <filesystem>
#include <random>
#include <stdexcept>

#include "kernel_build.hpp"
#include "kernels/common/formats.hpp"
#include "kernels/spec.hpp"
#include "sim/arch/arch.hpp"
#include "sim/isa/code_object.hpp"

namespace tilelab::kernels {

namespace {
using Host = HostResult (*)(emu::Emulator&, const std::vector<long long>&, std::uint64_t);
struct Entry {
  const char* name;
  Host host;
};
const Entry kHosts[] = {
    {"rmsnorm_bf16", rmsnorm_emulated},
    {"gemm_bf16", gemm_bf16_emulated},
    {"topk_f32", topk_f32_emulated},
    {"topk_bf16", topk_bf16_emulated},
    {"grouped_gemm_bf16", grouped_gemm_bf16_emulated},
    {"gemm_mxfp8", gemm_mxfp8_emulated},
    {"gemm_mxfp4", gemm_mxfp4_emulated},
    {"attention_fwd_d64", [](emu::Emulator& e, const std::vector<long long>& s, std::uint64_t seed) { return attention_fwd_emulated(e, s, seed, 64); }},
    {"attention_fwd_d128", [](emu::Emulator& e, const std::vector<long long>& s, std::uint64_t seed) { return attention_fwd_emulated(e, s, seed, 128); }},
#define TILELAB_MICRO(name) \
  {#name, [](emu::Emulator& e, const std::vector<long long>& s, std::uint64_t seed) { return micro_emulated(#name, e, s, seed); }}
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

std::vector<std::string> emulated_kernels() {
  std::vector<std::string> out;
  for (const Entry& e : kHosts) out.push_back(e.name);
  return out;
}

EmulatedRun run_emulated(const std::string& kernel, const std::string& arch, const std::vector<long long>& shape,
                         std::uint64_t seed, const std::string& code_object_dir,
                         const std::function<void(emu::Emulator&)>& prepare) {
  const KernelSpec& spec = find_spec(kernel);
  Host host = nullptr;
  for (const Entry& e : kHosts)
    if (kernel == e.name) host = e.host;
  if (!host) {
    std::string names;
    for (const Entry& e : kHosts) names += std::string(names.empty() ? "" : ", ") + e.name;
    throw std::invalid_argument("kernel '" + kernel + "' has no emulated host yet (emulated: " + names + ")");
  }
  if (shape.size() != spec.shape_dims.size())
    throw std::invalid_argument(kernel + " takes a shape of " + std::to_string(spec.shape_dims.size()) + " numbers");
  if (std::string v = spec.shape_violations(shape); !v.empty())
    throw std::invalid_argument(kernel + " refuses this shape: " + v);
  namespace fs = std::filesystem;
  std::string dir = code_object_dir.empty() ? build::kCodeObjectDir : code_object_dir;
  std::string file = (fs::path(dir) / arch / (fs::path(spec.source).stem().string() + ".hsaco")).string();
  isa::CodeObject co = isa::read_code_object(file);
  arch::Arch a = arch::load_arch(arch);
  emu::Emulator e(co, spec.name, a);
  if (prepare) prepare(e);
  EmulatedRun r;
  r.kernel = kernel;
  r.arch = arch;
  r.shape = shape;
  r.seed = seed;
  HostResult h = host(e, shape, seed);
  r.seconds = h.stats.seconds;
  r.max_rel_error = h.max_rel_error;
  r.tolerance = h.tolerance;
  r.tolerance_why = h.tolerance_why;
  r.pass = h.max_rel_error <= h.tolerance;
  r.stats = std::move(h.stats);
  r.output = std::move(h.output);
  return r;
}

}  // namespace tilelab::kernels
