#include "app/launch_run.hpp"

namespace tilelab::app {

std::string launch_shape_text(const kernels::LaunchFile& l) {
  std::string shape = "launch " + l.path;
  for (auto it = l.shape.begin(); it != l.shape.end(); ++it)
    shape += (it == l.shape.begin() ? ", " : ",") + it->first + "=" + std::to_string(it->second);
  return shape;
}

std::unique_ptr<LaunchFileRun> run_launch_file(const isa::CodeObject& co, const kernels::LaunchFile& l,
                                               const arch::Arch& a, const TimedOptions& options, bool timed) {
  auto run = std::make_unique<LaunchFileRun>();
  if (timed) run->model = std::make_unique<timing::CycleModel>(a, model_options(options, l.kernel));
  timing::CycleModel* model = run->model.get();
  run->device = std::make_unique<hw::EmuDevice>(a, [waves = options.wave_budget, launches = options.launch_budget,
                                                    model](emu::Emulator& e) {
    e.set_wave_budget(waves);
    e.set_launch_budget(launches);
    if (model) model->attach(e);
  });
  hw::EmuDevice& device = *run->device;
  const hw::Kernel kernel = device.load_kernel(co, l.kernel);
  const emu::Emulator& e = device.emulator(kernel);
  const kernels::HostLaunch launch = kernels::launch_file_host(device, l, co.kernel(l.kernel));
  device.launch(kernel, launch.grid, launch.block, launch.dynamic_lds, launch.arguments);
  run->stats = &device.last_stats();
  run->saved = launch.check().saved;
  run->shape = launch_shape_text(l);
  if (model) {
    TimedRun& t = run->view;
    t.kernel = l.kernel;
    t.shape = run->shape;
    t.seed = l.seed;
    t.arch = &a;
    t.code_object_sha256 = isa::sha256_hex(std::span<const std::uint8_t>(co.bytes));
    t.stats = run->stats;
    t.timing = &model->result();
    t.program = &e.program();
    t.source = program_source_lines(co, e.program());
    t.model_seconds = run->stats->seconds;
    t.top = options.top;
  }
  return run;
}

}  // namespace tilelab::app
