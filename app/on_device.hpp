// A kernel on a device (`tilelab run`, Python's `run`): the device opened
// from its name, the run's one machine-readable form, and the run recorded
// in the trace store (kind hw, or sim on the emulator) with its repetitions
// and wave stamps.  kernels/device_run.hpp does the run itself.
#pragma once
#include <memory>
#include <string>

#include "app/json.hpp"
#include "hw/device.hpp"
#include "kernels/device_run.hpp"
#include "traces/store.hpp"

namespace tilelab::app {

// "hip" or "cuda" (GPU `ordinal`) or "emu" (the functional emulator with the
// arch `arch`, a name or a .toml file); std::invalid_argument for others,
// hw::NoDevice when there is no such GPU.
std::unique_ptr<hw::Device> open_device(const std::string& kind, int ordinal, const std::string& arch);

// The run's shape as text: the spec's names (M=..,N=..), or "launch FILE".
std::string device_run_shape(const kernels::DeviceRun& r, const std::string& launch_path);

// The stamped waves' span on the constant-rate counter, in seconds (0 when
// its rate is unknown or nothing was stamped).
double stamp_span_seconds(const kernels::DeviceRun& r);

// `run --json`: kernel, shape, seed, code object, the pass's earlier kernels,
// the device, the reference check, bytes and FLOPs, the timing statistics
// (when timed) and the wave stamps' summary (when stamped).
Json device_run_json(const kernels::DeviceRun& r, const std::string& shape);

// The run into `file` as `id` (kind hw, or sim on the emulator): provenance,
// summary, repetitions, counters and the stamped waves.
void record_device_run(const std::string& file, const std::string& id, const kernels::DeviceRun& r,
                       const std::string& shape, const traces::WriterOptions& options);

}  // namespace tilelab::app
