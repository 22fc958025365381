#include "kernels/host.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "kernels/common/formats.hpp"
#include "sim/emu/fresh_buffer.hpp"

namespace tilelab::kernels {

// The suite's folders (kernels/suite.cmake), each defining its hosts.
#define TILELAB_SUITE_FOLDER(folder) std::vector<HostEntry> folder##_suite_hosts();
#include "generated/suite_folders.inc"
#undef TILELAB_SUITE_FOLDER

namespace {
const std::vector<HostEntry>& all_hosts() {
  static const std::vector<HostEntry> hosts = [] {
    std::vector<HostEntry> h;
#define TILELAB_SUITE_FOLDER(folder) \
  for (const HostEntry& e : folder##_suite_hosts()) h.push_back(e);
#include "generated/suite_folders.inc"
#undef TILELAB_SUITE_FOLDER
    return h;
  }();
  return hosts;
}

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
  std::vector<std::uint16_t> v;
  emu::assign_fresh(v, n);
  for (auto& x : v) x = float_to_bf16(d(rng));
  return v;
}

Host find_host(const std::string& kernel) {
  for (const HostEntry& e : all_hosts())
    if (kernel == e.kernel) return e.host;
  return nullptr;
}

std::vector<std::string> hosted_kernels() {
  std::vector<std::string> out;
  for (const HostEntry& e : all_hosts()) out.push_back(e.kernel);
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
