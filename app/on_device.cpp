#include "app/on_device.hpp"

#include <algorithm>
#include <set>

#include "app/provenance.hpp"
#include "app/target.hpp"
#include "generated/kernel_build.hpp"
#include "hw/cuda/cuda_device.hpp"
#include "hw/emu/emu_device.hpp"
#include "hw/hip/hip_device.hpp"
#include "hw/wave_stamps.hpp"
#include "kernels/spec.hpp"

namespace tilelab::app {

// The waves' span on the constant-rate counter, in seconds (0 when its rate is unknown).
double stamp_span_seconds(const kernels::DeviceRun& r) {
  if (r.waves.empty() || r.device.timer_khz <= 0) return 0;
  std::uint64_t first = r.waves[0].timer_start, last = r.waves[0].timer_end;
  for (const hw::WaveStamp& w : r.waves) first = std::min(first, w.timer_start), last = std::max(last, w.timer_end);
  return hw::ticks_to_ns(last - first, r.device.timer_khz) * 1e-9;
}

std::unique_ptr<hw::Device> open_device(const std::string& kind, int ordinal, const std::string& arch) {
  if (kind == "hip") return hw::open_hip_device(ordinal);
  if (kind == "cuda") return hw::open_cuda_device(ordinal);
  if (kind == "emu") return std::make_unique<hw::EmuDevice>(arch::load_arch(arch));
  throw std::invalid_argument("device takes hip, cuda or emu, not '" + kind + "'");
}

std::string device_run_shape(const kernels::DeviceRun& r, const std::string& launch_path) {
  if (r.shape.empty()) return "launch " + launch_path;
  return shape_text(kernels::find_spec(r.kernel), r.shape);
}

Json device_run_json(const kernels::DeviceRun& r, const std::string& shape) {
  Json j;
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

void record_device_run(const std::string& file, const std::string& id, const kernels::DeviceRun& r,
                       const std::string& shape, const traces::WriterOptions& options) {
  traces::RunInfo info = run_info(id, "hw", r.kernel, r.device.arch);
  info.kind = r.device.backend == "emu" ? "sim" : "hw";
  info.backend = r.device.backend;
  info.device = r.device.name;
  info.compiler = kernels::build::kCompiler;
  info.problem_shape = shape;
  info.config_json = nlohmann::ordered_json{{"ran_before", r.before}}.dump();
  info.seed = r.seed;
  info.driver = r.device.driver_version + "; " + r.device.runtime_version;
  info.time_unit = r.device.timer_khz > 0 ? "ns" : "cycles";
  traces::RunWriter w(file, info, options);
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

}  // namespace tilelab::app
