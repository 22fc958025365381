// The hardware side of tilelab: one small interface to a GPU, implemented by
// the CUDA driver backend (hw/cuda) today and by HIP (MI350) and the simulator
// later.  A Device loads a code object, allocates, copies, launches and waits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilelab::hw {

class DeviceError : public std::runtime_error {
 public:
  explicit DeviceError(const std::string& what) : std::runtime_error(what) {}
};

// A device allocation; freed by its Device.
struct Buffer {
  std::uint64_t address = 0;
  std::size_t bytes = 0;
};

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
};

// A loaded kernel entry point.
struct Kernel {
  void* handle = nullptr;
  std::string name;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual std::string name() const = 0;
  // Load a code object (cubin / hsaco) and look a kernel up in it.
  virtual Kernel load_kernel(const std::vector<std::uint8_t>& code_object, const std::string& kernel_name) = 0;
  virtual Buffer allocate(std::size_t bytes) = 0;
  virtual void release(Buffer& buffer) = 0;
  virtual void copy_to_device(const Buffer& dst, const void* src, std::size_t bytes) = 0;
  virtual void copy_to_host(void* dst, const Buffer& src, std::size_t bytes) = 0;
  // args: pointers to each kernel argument's value, in order (as cuLaunchKernel takes them).
  virtual void launch(const Kernel& kernel, Dim3 grid, Dim3 block, unsigned shared_bytes,
                      const std::vector<void*>& args) = 0;
  virtual void synchronize() = 0;
};

// Read a whole file (a code object); throws DeviceError naming the path.
std::vector<std::uint8_t> read_code_object(const std::string& path);

}  // namespace tilelab::hw
