// Running a kernel's host on a Device and timing it soundly: what `tilelab
// run` does on every backend.
//
// The method: one launch and the reference check first (a wrong kernel is
// not timed); `warmup` untimed launches; then `reps` launches, each timed
// alone between two device marks (events), with every cache level flushed
// before it by a write larger than all of them (DeviceInfo::flush_bytes, off
// with flush = false) outside the timed window.  Reported: the median, min,
// max, quartiles, IQR and coefficient of variation of the repetitions, and
// TFLOP/s and GB/s at the median.
//
// With wave_stamps, one more launch of the kernel's TILELAB_WAVE_STAMPS
// build records every wave's entry and exit (hw/wave_stamps.hpp), itself
// timed by marks so the two clocks can be compared.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/device.hpp"
#include "hw/wave_stamps.hpp"
#include "kernels/host.hpp"
#include "kernels/launch_file.hpp"

namespace tilelab::kernels {

struct RunOptions {
  int warmup = 3;
  int reps = 20;
  bool flush = true;
  bool wave_stamps = false;
  std::string code_object_dir;  // default: the build's kernels folder
};

struct TimingStats {
  std::vector<double> seconds;  // each repetition, in order
  double median = 0, min = 0, max = 0, p10 = 0, q1 = 0, q3 = 0, p90 = 0, iqr = 0, mean = 0;
  double cv = 0;  // standard deviation / mean (population), 0 for one repetition
};

// Order statistics by linear interpolation between closest ranks (the
// quantile at p is x[(n-1)p] interpolated), as numpy's default.  Throws
// std::invalid_argument on an empty list.
TimingStats timing_stats(const std::vector<double>& seconds);

struct DeviceRun {
  std::string kernel;
  std::vector<long long> shape;  // empty for a launch file
  std::uint64_t seed = 0;
  hw::DeviceInfo device;
  std::string code_object;  // the file run
  std::vector<std::string> before;  // kernels of the pass launched first, every time: the timing is the pass's
  Checked check;
  double flops = 0, bytes = 0;  // per launch
  bool timed = false;
  TimingStats timing;
  std::uint64_t flush_bytes = 0;  // written before each timed launch (0: no flush)
  double tflops = 0, gbps = 0;  // at the median; 0 where flops / bytes are 0
  // Wave stamps (with RunOptions::wave_stamps): one per wave, in launch
  // order, and the marks' time of the stamped launch.
  std::vector<hw::WaveStamp> waves;
  double stamped_launch_seconds = 0;
};

// The code object of suite kernel `kernel` for `device`: DIR/<arch>/<source>.hsaco
// for AMD and the emulator, DIR/<arch>/<source>.ptx for NVIDIA;
// DIR/stamps/<arch>/... for the timestamp build.
std::string suite_code_object(const std::string& kernel, const hw::DeviceInfo& device, bool stamps,
                              const std::string& dir = "");

// Runs suite kernel `kernel` on `shape` (checked against its spec) with
// inputs from `seed`.  Throws std::invalid_argument for an unknown kernel, a
// kernel without a host or a refused shape; hw::DeviceError when the device fails.
DeviceRun run_on_device(hw::Device& device, const std::string& kernel, const std::vector<long long>& shape,
                        std::uint64_t seed, const RunOptions& options);

// Runs a code object tilelab did not build with its launch file (no
// reference: the buffers marked save come back in check.saved).
DeviceRun run_launch_file_on_device(hw::Device& device, const isa::CodeObject& code_object, const LaunchFile& launch,
                                    const RunOptions& options);

}  // namespace tilelab::kernels
