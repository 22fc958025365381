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

#include "app/on_device.hpp"
#include "hw/cuda/cuda_device.hpp"
#include "hw/emu/emu_device.hpp"
#include "hw/hip/hip_device.hpp"
#include "generated/kernel_build.hpp"
#include "kernels/device_run.hpp"
#include "kernels/launch_file.hpp"
#include "kernels/spec.hpp"
#include "sim/arch/arch.hpp"
#include "sim/isa/code_object.hpp"
#include "app/error_text.hpp"
#include "tools/cli/cli_util.hpp"
#include "tools/cli/options.hpp"
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
    "DIR is the build's kernels folder unless --code-objects names another.\n\n"
    "Timing: --warmup untimed launches, then --reps launches, each alone between\n"
    "two events, each after a write larger than every cache\n"
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
    const double span = app::stamp_span_seconds(r);
    std::printf("  wave stamps: %zu waves on %zu CUs; first entry to last exit %.3f us on the constant-rate counter, "
                "%.3f us between the launch's events\n",
                r.waves.size(), cus.size(), span * 1e6, r.stamped_launch_seconds * 1e6);
  }
}

}  // namespace

int run_run(const std::vector<std::string>& args) {
  bool want_help = false, json = false, no_flush = false;
  std::optional<std::string> target, device_kind, launch_path, shape_text, arch;
  std::uint64_t seed = 1, max_memory = 0;
  int ordinal = 0;
  kernels::RunOptions o;
  StoreOptions store;
  po::options_description opts = option_group("options");
  opts.add_options()("help", flag(want_help), "this text")(
      "device", optional_value(device_kind, "hip|cuda|emu"), "where to run (required; above)")(
      "shape", optional_value(shape_text, "D1,D2,..."),
      "the spec's dimensions (default its first example), or NAME=V,... for a launch template")(
      "seed", po::value(&seed)->value_name("N")->default_value(1), "the inputs' seed")(
      "reps", po::value(&o.reps)->value_name("N")->default_value(20), "timed launches (0 to 100000)")(
      "warmup", po::value(&o.warmup)->value_name("N")->default_value(3), "untimed launches first (0 to 100000)")(
      "no-flush", flag(no_flush), "do not write past every cache level before each timed launch")(
      "wave-stamps", flag(o.wave_stamps), "launch the timestamp build once more and store one row per wave")(
      "ordinal", po::value(&ordinal)->value_name("N")->default_value(0), "which GPU")(
      "launch", optional_value(launch_path, "L.toml"), "a code object's launch file (tilelab sim --help)")(
      "max-memory", po::value(&max_memory)->value_name("BYTES")->default_value(0, "half this machine's memory"),
      "the most a launch file's buffers may take together")(
      "code-objects", po::value(&o.code_object_dir)->value_name("DIR")->default_value("", "the build's"),
      "where KERNEL's code objects are")(
      "json", flag(json), "the run as one JSON object");
  add_arch_option(opts, arch, "gfx950 (--device emu with a code object: its own processor)");
  opts.add(store_options(store));
  po::options_description all(opts);
  all.add_options()("target", optional_value(target), "");
  po::positional_options_description pos;
  pos.add("target", 1);
  int status = kOk;
  if (!parse_with_store("run", args, all, store, status, &pos)) return status;
  if (want_help) {
    print_help(std::cout, kHelp, opts);
    return kOk;
  }
  if (!target) return usage_error("run", "expected a kernel or a code object");
  if (!device_kind) return usage_error("run", "--device hip, cuda or emu is required");
  const std::string& kind = *device_kind;
  if (kind != "hip" && kind != "cuda" && kind != "emu") return usage_error("run", "--device takes hip, cuda or emu");
  o.flush = !no_flush;
  if (o.reps < 0 || o.reps > 100000 || o.warmup < 0 || o.warmup > 100000)
    return usage_error("run", "--reps and --warmup take 0 to 100000");
  if (ordinal < 0) return usage_error("run", "--ordinal takes a GPU's number, 0 or more");
  const bool code_object = names_code_object(*target);
  if (code_object && !launch_path) return usage_error("run", "a code object needs --launch L.toml");
  if (!code_object && launch_path) return usage_error("run", "--launch is for a code object, not a kernel of the suite");
  try {
    std::vector<long long> shape;
    std::string kernel_name = *target;
    std::optional<isa::CodeObject> co;
    std::optional<kernels::LaunchFile> launch;
    if (code_object) {
      co = isa::read_code_object(*target);
      launch = kernels::read_launch_file(*launch_path, *co, max_memory,
                                         shape_text ? app::parse_named_shape(*shape_text) : std::map<std::string, std::int64_t>{});
      kernel_name = launch->kernel;
    } else {
      const kernels::KernelSpec& spec = kernels::find_spec(*target);
      shape = shape_text ? parse_shape(*shape_text) : spec.example_shapes.front();
    }
    const std::unique_ptr<hw::Device> device =
        app::open_device(kind, ordinal, arch.value_or(kind == "emu" && co ? co->arch : "gfx950"));
    const std::string id = store.id_or("run-" + kernel_name + "-" + kind + "-" + device->info().arch);
    if (store.out) traces::check_new_run(*store.out, id);
    const kernels::DeviceRun r = code_object
                                     ? kernels::run_launch_file_on_device(*device, *co, *launch, o)
                                     : kernels::run_on_device(*device, *target, shape, seed, o);
    const std::string shape_str = app::device_run_shape(r, code_object ? launch->path : "");
    if (json) std::cout << app::device_run_json(r, shape_str).dump(2) << "\n";
    else print_text(r, shape_str);
    if (store.out) app::record_device_run(*store.out, id, r, shape_str, writer_options(store));
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
