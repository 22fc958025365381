#include "kernels/code_object_dir.hpp"
#include "kernels/device_run.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "kernel_build.hpp"
#include "kernels/spec.hpp"

namespace tilelab::kernels {

namespace {

double quantile(const std::vector<double>& sorted, double p) {
  const double at = p * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(at));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - static_cast<double>(lo));
}

std::string vendor_of(const hw::DeviceInfo& d) { return d.backend == "cuda" ? "nvidia" : "amd"; }

// Correctness, warm-up, timed repetitions and (optionally) the stamped
// launch, for one prepared launch of `kernel` on `device`.
// A pass of several kernels (launch.before) is launched, warmed up and timed
// whole; the stamped launch is the main kernel's alone (the pass before it
// has left its inputs in place).
void measure(hw::Device& device, const LoadedPass& pass, HostLaunch& launch, const RunOptions& o,
             const std::string& stamps_code_object, DeviceRun& r) {
  const hw::Kernel& kernel = pass.main;
  launch_pass(device, pass, launch);
  device.synchronize();
  r.check = launch.check();
  r.flops = launch.flops;
  r.bytes = launch.bytes;
  if (!r.check.pass() || !device.has_clock() || o.reps <= 0) return;

  for (int i = 0; i < o.warmup; ++i) launch_pass(device, pass, launch);
  const std::uint64_t flush_bytes = o.flush ? r.device.flush_bytes : 0;
  r.flush_bytes = flush_bytes;
  const std::uint64_t flush = flush_bytes ? device.allocate(flush_bytes, "cache flush") : 0;
  std::vector<double> seconds;
  for (int i = 0; i < o.reps; ++i) {
    if (flush) device.fill(flush, static_cast<std::uint8_t>(i + 1), flush_bytes);
    const int before = device.mark();
    launch_pass(device, pass, launch);
    const int after = device.mark();
    seconds.push_back(device.seconds_between(before, after));
  }
  r.timed = true;
  r.timing = timing_stats(seconds);
  if (r.timing.median > 0) {
    r.tflops = launch.flops / r.timing.median * 1e-12;
    r.gbps = launch.bytes / r.timing.median * 1e-9;
  }

  if (!o.wave_stamps) return;
  const hw::Kernel stamped = device.load_kernel(hw::read_code_object(stamps_code_object), kernel.name);
  const std::uint64_t blocks = std::uint64_t{launch.grid.x} * launch.grid.y * launch.grid.z;
  const std::uint64_t threads = std::uint64_t{launch.block.x} * launch.block.y * launch.block.z;
  const auto wave_size = static_cast<std::uint64_t>(r.device.wave_size);
  const std::size_t words = blocks * ((threads + wave_size - 1) / wave_size) * hw::kWaveStampWords;
  const std::uint64_t records = device.allocate(words * 8, "wave stamps");
  device.fill(records, 0, words * 8);
  std::vector<std::uint64_t> arguments = launch.arguments;
  arguments.push_back(records);
  if (flush) device.fill(flush, 0, flush_bytes);
  const int before = device.mark();
  device.launch(stamped, launch.grid, launch.block, launch.dynamic_lds, arguments);
  const int after = device.mark();
  r.stamped_launch_seconds = device.seconds_between(before, after);
  std::vector<std::uint64_t> raw(words);
  device.copy_to_host(raw.data(), records, words * 8);
  r.waves = hw::decode_wave_stamps(raw, vendor_of(r.device));
}

}  // namespace

TimingStats timing_stats(const std::vector<double>& seconds) {
  if (seconds.empty()) throw std::invalid_argument("timing statistics of no repetitions");
  TimingStats t;
  t.seconds = seconds;
  std::vector<double> s = seconds;
  std::sort(s.begin(), s.end());
  t.min = s.front();
  t.max = s.back();
  t.median = quantile(s, 0.5);
  t.q1 = quantile(s, 0.25);
  t.q3 = quantile(s, 0.75);
  t.p10 = quantile(s, 0.1);
  t.p90 = quantile(s, 0.9);
  t.iqr = t.q3 - t.q1;
  double sum = 0;
  for (double x : s) sum += x;
  t.mean = sum / static_cast<double>(s.size());
  double var = 0;
  for (double x : s) var += (x - t.mean) * (x - t.mean);
  var /= static_cast<double>(s.size());
  t.cv = t.mean > 0 ? std::sqrt(var) / t.mean : 0;
  return t;
}

std::string suite_code_object(const std::string& kernel, const hw::DeviceInfo& device, bool stamps,
                              const std::string& dir) {
  namespace fs = std::filesystem;
  const KernelSpec& spec = find_spec(kernel);
  fs::path base = dir.empty() ? fs::path(code_object_dir()) : fs::path(dir);
  if (stamps) base /= "stamps";
  const std::string ext = device.backend == "cuda" ? ".ptx" : ".hsaco";
  return (base / device.arch / (fs::path(spec.source).stem().string() + ext)).string();
}

DeviceRun run_on_device(hw::Device& device, const std::string& kernel, const std::vector<long long>& shape,
                        std::uint64_t seed, const RunOptions& options) {
  const KernelSpec& spec = find_spec(kernel);
  const Host host = find_host(kernel);
  if (!host) throw std::invalid_argument("kernel '" + kernel + "' has no host yet");
  if (shape.size() != spec.shape_dims.size())
    throw std::invalid_argument(kernel + " takes a shape of " + std::to_string(spec.shape_dims.size()) + " numbers");
  if (std::string v = spec.shape_violations(shape); !v.empty())
    throw std::invalid_argument(kernel + " refuses this shape: " + v);
  DeviceRun r;
  r.kernel = kernel;
  r.shape = shape;
  r.seed = seed;
  r.device = device.info();
  r.code_object = suite_code_object(kernel, r.device, false, options.code_object_dir);
  if (!std::filesystem::exists(r.code_object))
    throw hw::DeviceError("no code object of " + kernel + " for " + r.device.arch + " (" + r.code_object +
                          "): the suite builds gfx950, gfx942 and, for rmsnorm and the global-memory "
                          "microbenchmarks, sm_90");
  const std::vector<std::uint8_t> code_object = hw::read_code_object(r.code_object);
  const hw::Kernel k = device.load_kernel(code_object, spec.name);
  HostLaunch launch = host(device, shape, seed);
  for (const KernelLaunch& b : launch.before) r.before.push_back(b.kernel);
  measure(device, load_pass(device, code_object, k, launch), launch, options,
          suite_code_object(kernel, r.device, true, options.code_object_dir), r);
  return r;
}

DeviceRun run_launch_file_on_device(hw::Device& device, const isa::CodeObject& code_object, const LaunchFile& l,
                                    const RunOptions& options) {
  if (options.wave_stamps)
    throw std::invalid_argument("--wave-stamps needs a kernel of the suite (a code object tilelab did not build "
                                "has no timestamp build)");
  DeviceRun r;
  r.kernel = l.kernel;
  r.seed = l.seed;
  r.device = device.info();
  r.code_object = code_object.path;
  const hw::Kernel k = device.load_kernel(code_object.bytes, l.kernel);
  HostLaunch launch = launch_file_host(device, l, code_object.kernel(l.kernel));
  measure(device, LoadedPass{{}, k}, launch, options, "", r);
  return r;
}

}  // namespace tilelab::kernels
