#include "kernels/emulated.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "kernel_build.hpp"
#include "hw/emu/emu_device.hpp"
#include "kernels/host.hpp"
#include "kernels/spec.hpp"
#include "sim/arch/arch.hpp"
#include "sim/isa/code_object.hpp"

namespace tilelab::kernels {

EmulatedRun run_emulated(const std::string& kernel, const std::string& arch, const std::vector<long long>& shape,
                         std::uint64_t seed, const std::string& code_object_dir,
                         const std::function<void(emu::Emulator&)>& prepare,
                         const std::function<bool()>& check_output) {
  const KernelSpec& spec = find_spec(kernel);
  Host host = find_host(kernel);
  if (!host) {
    std::string names;
    for (const std::string& n : hosted_kernels()) names += (names.empty() ? "" : ", ") + n;
    throw std::invalid_argument("kernel '" + kernel + "' has no host yet (hosted: " + names + ")");
  }
  if (shape.size() != spec.shape_dims.size())
    throw std::invalid_argument(kernel + " takes a shape of " + std::to_string(spec.shape_dims.size()) + " numbers");
  if (std::string v = spec.shape_violations(shape); !v.empty())
    throw std::invalid_argument(kernel + " refuses this shape: " + v);
  if (std::find(spec.archs.begin(), spec.archs.end(), arch) == spec.archs.end()) {
    std::string built;
    for (const std::string& a : spec.archs) built += (built.empty() ? "" : ", ") + a;
    throw std::invalid_argument(kernel + " is not built for " + arch + " (only for " + built + ")");
  }
  namespace fs = std::filesystem;
  std::string dir = code_object_dir.empty() ? build::kCodeObjectDir : code_object_dir;
  std::string file = (fs::path(dir) / arch / (fs::path(spec.source).stem().string() + ".hsaco")).string();
  hw::EmuDevice device(arch::load_arch(arch), prepare);
  const isa::CodeObject code_object = isa::read_code_object(file);
  const hw::Kernel k = device.load_kernel(code_object, spec.name);  // errors name the file
  EmulatedRun r;
  r.kernel = kernel;
  r.arch = arch;
  r.shape = shape;
  r.seed = seed;
  HostLaunch launch = host(device, shape, seed);
  launch_pass(device, load_pass(device, code_object.bytes, k, launch), launch);
  r.stats = device.last_stats();  // the main kernel's (the last dispatch)
  r.seconds = r.stats.seconds;
  r.checked = !check_output || check_output();
  for (const KernelLaunch& b : launch.before) r.before.push_back(b.kernel);
  if (!r.checked) return r;
  Checked c = launch.check();
  r.max_rel_error = c.max_rel_error;
  r.tolerance = c.tolerance;
  r.tolerance_why = c.tolerance_why;
  r.pass = c.pass();
  r.output = std::move(c.output);
  // LDS races found: the whole pass again with the waves in the other order,
  // so that the report can say whether the races change the result.
  if (r.stats.lds_races.count > 0) {
    hw::EmuDevice again(arch::load_arch(arch), [&](emu::Emulator& e) {
      if (prepare) prepare(e);
      e.set_reverse_wave_order(true);
    });
    const hw::Kernel k2 = again.load_kernel(code_object, spec.name);
    HostLaunch launch2 = host(again, shape, seed);
    launch_pass(again, load_pass(again, code_object.bytes, k2, launch2), launch2);
    r.same_output_in_reverse_order = launch2.check().output == r.output;
  }
  return r;
}

}  // namespace tilelab::kernels

namespace tilelab::kernels {
std::vector<std::string> emulated_kernels() { return hosted_kernels(); }
}  // namespace tilelab::kernels
