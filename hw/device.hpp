// The one interface every backend implements: a kernel's host (inputs from a
// seed, launch, reference check; kernels/host.hpp) is written once against it
// and runs unchanged on the functional emulator and the cycle model
// (hw/emu), AMD hardware through HIP (hw/hip) and NVIDIA hardware through the
// CUDA driver (hw/cuda).
//
// A Device loads code objects, allocates device memory (freed with the
// device), copies, launches with one 64-bit value per explicit argument (laid
// out by the kernel's own argument table: sim/isa/kernel_arguments.hpp), and
// times launches on its own clock with marks (events).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/isa/kernel_arguments.hpp"

namespace tilelab::hw {

// A backend call failed (a driver error, a refused code object, a bad copy).
class DeviceError : public std::runtime_error {
 public:
  explicit DeviceError(const std::string& what) : std::runtime_error(what) {}
};

// No usable device: the runtime library is missing, it finds no GPU, or the
// GPU is another vendor's.  Kept apart from DeviceError so that a command can
// exit with its own status ("nothing to run on" is not "the kernel is wrong").
class NoDevice : public std::runtime_error {
 public:
  explicit NoDevice(const std::string& what) : std::runtime_error(what) {}
};

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

// What a device is, for the run's provenance and for the rates the runner
// converts with.  Unknown values stay 0 / empty.
struct DeviceInfo {
  std::string backend;  // emu, hip, cuda
  std::string name;     // AMD Instinct MI355X, NVIDIA H200, functional emulator
  std::string arch;     // gfx950, gfx942, sm_90
  std::string arch_detail;  // gfx950:sramecc+:xnack-, compute capability 9.0
  int compute_units = 0;    // CUs (NVIDIA: SMs)
  int wave_size = 0;        // 64 (NVIDIA: warp of 32)
  double core_clock_khz = 0;  // the peak shader clock the runtime reports
  double timer_khz = 0;       // the constant-rate counter (s_memrealtime; NVIDIA globaltimer: ns)
  std::uint64_t l2_bytes = 0;
  // A write of this many bytes evicts every cache level between the CUs and
  // memory (L2 and, on MI300/MI350, the 256 MB Infinity Cache).
  std::uint64_t flush_bytes = 0;
  std::string driver_version, runtime_version;
};

// A loaded kernel: its backend handle and where each explicit argument goes.
struct Kernel {
  void* handle = nullptr;
  std::string name;
  std::vector<isa::ArgumentSlot> arguments;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const DeviceInfo& info() const = 0;
  // Load a code object (hsaco, cubin or PTX text) and look `kernel_name` up.
  // A code object for another architecture than the device's is refused
  // with a DeviceError naming both.
  virtual Kernel load_kernel(const std::vector<std::uint8_t>& code_object, const std::string& kernel_name) = 0;
  // `bytes` of device memory (at least 1), freed when the device is.
  virtual std::uint64_t allocate(std::size_t bytes, const std::string& what) = 0;
  virtual void copy_to_device(std::uint64_t dst, const void* src, std::size_t bytes) = 0;
  virtual void copy_to_host(void* dst, std::uint64_t src, std::size_t bytes) = 0;
  virtual void fill(std::uint64_t dst, std::uint8_t value, std::size_t bytes) = 0;
  // Asynchronous on hardware; `arguments` as isa::pack_arguments takes them;
  // `dynamic_lds`: bytes of LDS (shared memory) beyond the kernel's own.
  virtual void launch(const Kernel& kernel, Dim3 grid, Dim3 block, unsigned dynamic_lds,
                      const std::vector<std::uint64_t>& arguments) = 0;
  virtual void synchronize() = 0;
  // Timing on the device's clock: a mark is recorded in order with the
  // launches; seconds_between waits for both and returns the time between
  // them.  has_clock() is false for the functional emulator (no time model).
  virtual bool has_clock() const = 0;
  virtual int mark() = 0;
  virtual double seconds_between(int first_mark, int second_mark) = 0;
};

// Read a whole file (a code object); throws DeviceError naming the path.
std::vector<std::uint8_t> read_code_object(const std::string& path);

// The architecture a device of `info` runs: refuses (DeviceError naming both)
// a code object built for `code_arch` when it differs.
void check_code_object_arch(const DeviceInfo& info, const std::string& code_arch);

// The kernel's argument buffer (isa::pack_arguments) for a launch; a wrong
// argument list is a DeviceError naming the kernel.
std::vector<std::uint8_t> argument_buffer(const Kernel& kernel, const std::vector<std::uint64_t>& arguments);

}  // namespace tilelab::hw
