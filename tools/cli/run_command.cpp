// `tilelab run`: a kernel of the suite (or a code object with its launch
// file) on a device — the functional emulator, HIP hardware or CUDA
// hardware — checked against its reference, then timed soundly
// (kernels/device_run.hpp); the run, its repetitions and per-wave stamps go
// into the trace store beside simulated runs of the same kernel.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "hw/cuda/cuda_device.hpp"
#include "hw/emu/emu_device.hpp"
#include "hw/hip/hip_device.hpp"
#include "generated/kernel_build.hpp"
#include "kernels/device_run.hpp"
#include "kernels/launch_file.hpp"
#include "kernels/spec.hpp"
#include "sim/arch/arch.hpp"
#include "sim/isa/code_object.hpp"
#include "tools/cli/error_text.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/design_run.hpp"

namespace tilelab::cli {

namespace {

const char* kHelp =
    "usage: tilelab run KERNEL --device hip|cuda|emu [--shape D1,D2,...] [--seed N]\n"
    "                  [--reps N] [--warmup N] [--no-flush] [--wave-stamps] [--ordinal N]\n"
    "                  [--arch A] [--code-objects DIR] [--json] [--out FILE.h5 [--run-id ID] [--wait S]]\n"
    "       tilelab run FILE.co --launch L.toml [--max-memory BYTES] --device hip|cuda|emu (options as above)\n\n"
    "Runs KERNEL's host (inputs from the seed, default 1) on a device and checks\n"
    "the output against the kernel's CPU reference, then times it:\n"
    "  --device hip   an AMD GPU through the HIP runtime, loaded at run time\n"
    "                 (libamdhip64.so.7, .so.6, unversioned, /opt/rocm/lib; or the\n"
    "                 library TILELAB_HIP_LIBRARY names); code object DIR/<gfx>/<source>.hsaco\n"
    "  --device cuda  an NVIDIA GPU through libcuda.so.1; DIR/sm_90/<source>.ptx (rmsnorm\n"
    "                 and the global-memory microbenchmarks are built for NVIDIA)\n"
    "  --device emu   the functional emulator (--arch, default gfx950): the check only,\n"
    "                 it has no clock (tilelab sim --timing models the time)\n"
    "--ordinal N picks the GPU (default 0).  DIR is the build's kernels folder unless\n"
    "--code-objects names another.  --max-memory BYTES (default: half of this\n"
    "machine's memory): the most a launch file's buffers may take together.\n\n"
    "Timing: --warmup N untimed launches (default 3), then --reps N launches (default\n"
    "20), each alone between two events, each after a write larger than every cache\n"
    "level (L2, and the 256 MB Infinity Cache on MI300/MI350; --no-flush skips it)\n"
    "outside the timed window.  Prints the median, min, max, quartiles, IQR and\n"
    "coefficient of variation, and TFLOP/s and GB/s at the median for the shape.\n"
    "A wrong result is not timed.  A kernel that runs as a pass (attention backward:\n"
    "its preprocessing kernel first) is launched, checked and timed as the whole pass.\n\n"
    "--wave-stamps launches the kernel's timestamp build once more\n"
    "(DIR/stamps/<arch>/...: each wave records the core clock and the constant-rate\n"
    "counter at entry and exit, and the XCC, SE, CU, SIMD and slot it ran on;\n"
    "NVIDIA: clock64, globaltimer, SM and warp id) and stores one row per wave.\n\n"
    "FILE.co (or assembly FILE.s, assembled and linked on reading) with --launch\n"
    "L.toml runs a code object tilelab did not build (see\n"
    "tilelab sim --help for the launch file); there is no reference to check.\n\n"
    "--out adds the run to an HDF5 trace store (kind hw, or sim on the emulator;\n"
    "run id default run-<kernel>-<device>-<arch>): device, arch, clocks, driver and\n"
    "runtime versions in its provenance, the repetitions, the summary, the waves\n"
    "(times in ns of the constant-rate counter); `tilelab compare` lines it up with\n"
    "sim and design runs of the same kernel.  --json prints the run as one JSON object.\n\n"
    "Exit status: 0 pass, 1 wrong result or a device error, 2 bad command line,\n"
    "3 no device (no runtime library, no GPU, or a GPU of another vendor).\n";

std::unique_ptr<hw::Device> open_device(const std::string& kind, int ordinal, const std::string& arch) {
  if (kind == "hip") return hw::open_hip_device(ordinal);
  if (kind == "cuda") return hw::open_cuda_device(ordinal);
  return std::make_unique<hw::EmuDevice>(arch::load_arch(arch));
}

std::string shape_of(const kernels::DeviceRun& r, const std::string& launch_path) {
  if (r.shape.empty()) return "launch " + launch_path;
  return shape_text(kernels::find_spec(r.kernel), r.shape);
}

// The waves' span on the constant-rate counter, in seconds (0 when its rate is unknown).
double stamp_span_seconds(const kernels::DeviceRun& r) {
  if (r.waves.empty() || r.device.timer_khz <= 0) return 0;
  std::uint64_t first = r.waves[0].timer_start, last = r.waves[0].timer_end;
  for (const hw::WaveStamp& w : r.waves) first = std::min(first, w.timer_start), last = std::max(last, w.timer_end);
  return hw::ticks_to_ns(last - first, r.device.timer_khz) * 1e-9;
}

nlohmann::json run_json(const kernels::DeviceRun& r, const std::string& shape) {
  nlohmann::json j;
  j["kernel"] = r.kernel;
  j["shape"] = shape;
  j["seed"] = r.seed;
  j["code_object"] = r.code_object;
  j["ran_before"] = r.before;  // the pass's earlier kernels, launched and timed with this one
  j["device"] = {{"backend", r.device.backend}, {"name", r.device.name}, {"arch", r.device.arch},
                 {"arch_detail", r.device.arch_detail}, {"compute_units", r.device.compute_units},
                 {"wave_size", r.device.wave_size}, {"core_clock_khz", r.device.core_clock_khz},
                 {"timer_khz", r.device.timer_khz}, {"l2_bytes", r.device.l2_bytes},
                 {"driver", r.device.driver_version},
                 {"runtime", r.device.runtime_version}};
  j["check"] = {{"has_reference", r.check.has_reference}, {"pass", r.check.pass()},
                {"max_rel_error", r.check.max_rel_error}, {"tolerance", r.check.tolerance},
                {"why", r.check.tolerance_why}};
  j["flush_bytes"] = r.flush_bytes;
  j["flops"] = r.flops;
  j["bytes"] = r.bytes;
  if (r.timed) {
    const auto& t = r.timing;
    j["timing"] = {{"reps_s", t.seconds}, {"median_s", t.median}, {"min_s", t.min}, {"max_s", t.max},
                   {"q1_s", t.q1}, {"q3_s", t.q3}, {"iqr_s", t.iqr}, {"cv", t.cv},
                   {"tflops", r.tflops}, {"gbps", r.gbps}};
  }
  if (!r.waves.empty()) {  // the waves themselves go to the store (--out)
    std::set<int> cus;
    for (const hw::WaveStamp& w : r.waves) cus.insert(w.chip_cu());
    j["wave_stamps"] = {{"waves", r.waves.size()}, {"cus", cus.size()}, {"span_s", stamp_span_seconds(r)},
                        {"stamped_launch_s", r.stamped_launch_seconds}};
  }
  return j;
}

void print_text(const kernels::DeviceRun& r, const std::string& shape) {
  const hw::DeviceInfo& d = r.device;
  std::printf("%s on %s (%s, %s", r.kernel.c_str(), d.name.c_str(), d.arch_detail.c_str(), d.backend.c_str());
  if (d.compute_units) std::printf(", %d CUs", d.compute_units);
  if (d.core_clock_khz) std::printf(", %.0f MHz", d.core_clock_khz / 1000);
  if (!d.driver_version.empty()) std::printf("; %s", d.driver_version.c_str());
  std::printf(")\n  %s, seed %llu, %s\n", shape.c_str(), static_cast<unsigned long long>(r.seed), r.code_object.c_str());
  if (!r.before.empty()) {
    std::string names;
    for (const std::string& b : r.before) names += b + ", then ";
    std::printf("  a pass: %s%s, launched, checked and timed together (the wave stamps are %s's)\n", names.c_str(),
                r.kernel.c_str(), r.kernel.c_str());
  }
  if (r.check.has_reference)
    std::printf("  check: %s, max relative error %.3g (tolerance %.3g: %s)\n", r.check.pass() ? "pass" : "FAIL",
                r.check.max_rel_error, r.check.tolerance, r.check.tolerance_why.c_str());
  else
    std::printf("  check: none (%s)\n", r.check.tolerance_why.c_str());
  if (!r.timed) {
    std::printf("  timing: %s\n", !r.check.pass() ? "not timed (wrong result)"
                                  : d.backend == "emu" ? "none: the functional emulator has no clock (tilelab sim --timing)"
                                                       : "none (--reps 0)");
    return;
  }
  const auto& t = r.timing;
  std::printf("  timing: %zu repetitions, %s\n", t.seconds.size(),
              r.flush_bytes ? ("caches flushed before each (" + std::to_string(r.flush_bytes >> 20) + " MiB written)").c_str()
                            : "caches not flushed");
  std::printf("    median %.3f us  min %.3f  max %.3f  IQR %.3f us (q1 %.3f, q3 %.3f)  CV %.2f%%\n", t.median * 1e6,
              t.min * 1e6, t.max * 1e6, t.iqr * 1e6, t.q1 * 1e6, t.q3 * 1e6, t.cv * 100);
  if (r.flops > 0) std::printf("    %.2f TFLOP/s (%.4g flops per launch)\n", r.tflops, r.flops);
  if (r.bytes > 0) std::printf("    %.1f GB/s (%.4g bytes per launch)\n", r.gbps, r.bytes);
  if (!r.waves.empty()) {
    std::set<int> cus;
    for (const hw::WaveStamp& w : r.waves) cus.insert(w.chip_cu());
    const double span = stamp_span_seconds(r);
    std::printf("  wave stamps: %zu waves on %zu CUs; first entry to last exit %.3f us on the constant-rate counter, "
                "%.3f us between the launch's events\n",
                r.waves.size(), cus.size(), span * 1e6, r.stamped_launch_seconds * 1e6);
  }
}

void record(const std::string& file, const std::string& id, const kernels::DeviceRun& r, const std::string& shape) {
  traces::RunInfo info = design_run_info(id, r.kernel, r.device.arch);
  info.kind = r.device.backend == "emu" ? "sim" : "hw";
  info.backend = r.device.backend;
  info.device = r.device.name;
  info.compiler = kernels::build::kCompiler;
  info.problem_shape = shape;
  info.config_json = nlohmann::ordered_json{{"ran_before", r.before}}.dump();
  info.seed = r.seed;
  info.driver = r.device.driver_version + "; " + r.device.runtime_version;
  info.time_unit = r.device.timer_khz > 0 ? "ns" : "cycles";
  traces::RunWriter w(file, info, store_writer_options());
  traces::Summary s;
  s.max_rel_error = r.check.max_rel_error;
  s.correct = r.check.pass();
  if (r.timed) {
    for (std::size_t i = 0; i < r.timing.seconds.size(); ++i)
      w.add_repetition({static_cast<std::int32_t>(i), r.timing.seconds[i] * 1e9});
    s.median_ns = r.timing.median * 1e9;
    s.p10_ns = r.timing.p10 * 1e9;
    s.p90_ns = r.timing.p90 * 1e9;
    s.min_ns = r.timing.min * 1e9;
    s.iqr_ns = r.timing.iqr * 1e9;
    s.tflops = r.tflops;
    s.gbps = r.gbps;
    w.add_counter("timing_cv", r.timing.cv);
  }
  w.set_summary(s);
  w.add_counter("device_compute_units", r.device.compute_units);
  w.add_counter("device_core_clock_khz", r.device.core_clock_khz);
  w.add_counter("device_timer_khz", r.device.timer_khz);
  w.add_counter("flush_bytes", static_cast<double>(r.flush_bytes));
  if (!r.waves.empty()) {
    std::uint32_t per_block = 0;
    for (const hw::WaveStamp& x : r.waves) per_block = std::max(per_block, x.wave + 1);
    std::uint64_t t0 = r.waves[0].timer_start, c0 = r.waves[0].clock_start;
    for (const hw::WaveStamp& x : r.waves) t0 = std::min(t0, x.timer_start), c0 = std::min(c0, x.clock_start);
    for (std::size_t i = 0; i < r.waves.size(); ++i) {
      const hw::WaveStamp& x = r.waves[i];
      traces::WaveRecord rec{};
      rec.wave = static_cast<std::uint32_t>(i);
      rec.workgroup = static_cast<std::uint32_t>(i / per_block);
      rec.cu = static_cast<std::uint16_t>(x.chip_cu());
      rec.simd = static_cast<std::uint8_t>(x.simd);
      rec.slot = static_cast<std::uint8_t>(x.slot);
      if (r.device.timer_khz > 0) {
        rec.start = static_cast<std::int64_t>(hw::ticks_to_ns(x.timer_start - t0, r.device.timer_khz));
        rec.end = static_cast<std::int64_t>(hw::ticks_to_ns(x.timer_end - t0, r.device.timer_khz));
      } else {
        rec.start = static_cast<std::int64_t>(x.clock_start - c0);
        rec.end = static_cast<std::int64_t>(x.clock_end - c0);
      }
      w.add_wave(rec);
    }
    w.add_counter("stamp_span_ns", stamp_span_seconds(r) * 1e9);
    // The core clock the waves ran at: their core-clock ticks over their
    // constant-rate time, summed over all waves (the counter's granularity
    // averages out).
    double ticks = 0, ns = 0;
    for (const hw::WaveStamp& x : r.waves)
      ticks += static_cast<double>(x.clock_end - x.clock_start),
          ns += r.device.timer_khz > 0 ? hw::ticks_to_ns(x.timer_end - x.timer_start, r.device.timer_khz) : 0;
    if (ns > 0) w.add_counter("stamp_core_clock_mhz", ticks / ns * 1e3);
    w.add_counter("stamped_launch_ns", r.stamped_launch_seconds * 1e9);
  }
  w.finish();
}

}  // namespace

int run_run(const std::vector<std::string>& args) {
  po::options_description opts;
  opts.add_options()("help", "")("target", po::value<std::string>(), "")("device", po::value<std::string>(), "")(
      "launch", po::value<std::string>(), "")("shape", po::value<std::string>(), "")(
      "seed", po::value<std::uint64_t>()->default_value(1), "")("reps", po::value<int>()->default_value(20), "")(
      "warmup", po::value<int>()->default_value(3), "")("no-flush", "")("wave-stamps", "")(
      "ordinal", po::value<int>()->default_value(0), "")("max-memory", po::value<std::uint64_t>()->default_value(0), "")("arch", po::value<std::string>()->default_value("gfx950"), "")(
      "code-objects", po::value<std::string>()->default_value(""), "")("json", "")("out", po::value<std::string>(), "")(
      "run-id", po::value<std::string>()->default_value(""), "")("wait", po::value<double>()->default_value(60), "");
  po::positional_options_description pos;
  pos.add("target", 1);
  po::variables_map vm;
  int status = kOk;
  if (!parse_options("run", args, opts, vm, status, &pos)) return status;
  if (vm.count("help")) {
    std::cout << kHelp;
    return kOk;
  }
  if (!vm.count("target")) return usage_error("run", "expected a kernel or a code object");
  if (!vm.count("device")) return usage_error("run", "--device hip, cuda or emu is required");
  const std::string target = vm["target"].as<std::string>(), kind = vm["device"].as<std::string>();
  if (kind != "hip" && kind != "cuda" && kind != "emu") return usage_error("run", "--device takes hip, cuda or emu");
  kernels::RunOptions o;
  o.reps = vm["reps"].as<int>();
  o.warmup = vm["warmup"].as<int>();
  o.flush = !vm.count("no-flush");
  o.wave_stamps = vm.count("wave-stamps") > 0;
  o.code_object_dir = vm["code-objects"].as<std::string>();
  if (o.reps < 0 || o.reps > 100000 || o.warmup < 0 || o.warmup > 100000)
    return usage_error("run", "--reps and --warmup take 0 to 100000");
  if (vm["ordinal"].as<int>() < 0) return usage_error("run", "--ordinal takes a GPU's number, 0 or more");
  const bool code_object = names_code_object(target);
  if (code_object && !vm.count("launch")) return usage_error("run", "a code object needs --launch L.toml");
  if (!code_object && vm.count("launch")) return usage_error("run", "--launch is for a code object, not a kernel of the suite");
  set_store_wait(vm["wait"].as<double>());
  try {
    std::vector<long long> shape;
    std::string kernel_name = target;
    std::optional<isa::CodeObject> co;
    std::optional<kernels::LaunchFile> launch;
    if (code_object) {
      co = isa::read_code_object(target);
      launch = kernels::read_launch_file(vm["launch"].as<std::string>(), *co, vm["max-memory"].as<std::uint64_t>(),
                                         vm.count("shape") ? app::parse_named_shape(vm["shape"].as<std::string>())
                                                           : std::map<std::string, std::int64_t>{});
      kernel_name = launch->kernel;
    } else {
      const kernels::KernelSpec& spec = kernels::find_spec(target);
      shape = vm.count("shape") ? parse_shape(vm["shape"].as<std::string>()) : spec.example_shapes.front();
    }
    const std::unique_ptr<hw::Device> device = open_device(kind, vm["ordinal"].as<int>(),
                                                           kind == "emu" && co && vm["arch"].defaulted() ? co->arch
                                                                                                          : vm["arch"].as<std::string>());
    std::string id = vm["run-id"].as<std::string>();
    if (id.empty()) id = "run-" + kernel_name + "-" + kind + "-" + device->info().arch;
    if (vm.count("out")) traces::check_new_run(vm["out"].as<std::string>(), id);
    const kernels::DeviceRun r = code_object
                                     ? kernels::run_launch_file_on_device(*device, *co, *launch, o)
                                     : kernels::run_on_device(*device, target, shape, vm["seed"].as<std::uint64_t>(), o);
    const std::string shape_str = shape_of(r, code_object ? launch->path : "");
    if (vm.count("json")) std::cout << run_json(r, shape_str).dump(2) << "\n";
    else print_text(r, shape_str);
    if (vm.count("out")) record(vm["out"].as<std::string>(), id, r, shape_str);
    return r.check.pass() ? kOk : kFailed;
  } catch (const hw::NoDevice& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kNoDevice;
  } catch (const std::invalid_argument& e) {
    return usage_error("run", e.what());
  } catch (const std::exception& e) {
    std::cerr << "error: " << error_text(e) << "\n";
    return kFailed;
  }
}

}  // namespace tilelab::cli
