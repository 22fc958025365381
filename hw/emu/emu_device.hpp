// The functional emulator (sim/emu) as a Device: code objects run on the CPU
// instruction by instruction; device memory is emu::GlobalMemory.  With the
// cycle model attached (in on_load), the same launches are timed by it.
//
// There is no device clock (has_clock() is false): the emulator executes,
// it does not time; `tilelab sim --timing` reads the cycle model instead.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "hw/device.hpp"
#include "sim/arch/arch.hpp"
#include "sim/emu/emulator.hpp"

namespace tilelab::hw {

class EmuDevice final : public Device {
 public:
  // `on_load` is called with each kernel's emulator when it is loaded (the
  // cycle model attaches itself there).
  explicit EmuDevice(arch::Arch arch, std::function<void(emu::Emulator&)> on_load = {});
  ~EmuDevice() override;

  const DeviceInfo& info() const override { return info_; }
  Kernel load_kernel(const std::vector<std::uint8_t>& code_object, const std::string& kernel_name) override;
  // The same for a code object already read (its errors then name its file).
  Kernel load_kernel(isa::CodeObject code_object, const std::string& kernel_name);
  std::uint64_t allocate(std::size_t bytes, const std::string& what) override;
  void copy_to_device(std::uint64_t dst, const void* src, std::size_t bytes) override;
  void copy_to_host(void* dst, std::uint64_t src, std::size_t bytes) override;
  void fill(std::uint64_t dst, std::uint8_t value, std::size_t bytes) override;
  // Runs the whole dispatch before it returns (emu::EmuError when it stops).
  void launch(const Kernel& kernel, Dim3 grid, Dim3 block, unsigned dynamic_lds,
              const std::vector<std::uint64_t>& arguments) override;
  void synchronize() override {}
  bool has_clock() const override { return false; }
  int mark() override;
  double seconds_between(int, int) override;

  // What the last launch did: instructions, waves, LDS sites and their
  // bank-model costs, wall time of the dispatch.
  const emu::RunStats& last_stats() const { return last_stats_; }
  emu::GlobalMemory& memory() { return memory_; }
  // The emulator a loaded kernel runs on (its program, its settings).
  emu::Emulator& emulator(const Kernel& kernel);

 private:
  struct Loaded;
  arch::Arch arch_;
  std::function<void(emu::Emulator&)> on_load_;
  DeviceInfo info_;
  emu::GlobalMemory memory_;
  std::vector<std::unique_ptr<Loaded>> loaded_;
  // Code objects mapped into device memory (for kernels that read their own
  // address: globals, constant tables), once per code object as a loader maps
  // a module: its kernels share its globals.  By the SHA-256 of its bytes.
  std::map<std::string, std::uint64_t> mapped_;
  emu::RunStats last_stats_;
};

}  // namespace tilelab::hw
