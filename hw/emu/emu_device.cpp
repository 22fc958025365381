#include "hw/emu/emu_device.hpp"

#include <vector>

#include "sim/isa/code_object.hpp"

namespace tilelab::hw {

struct EmuDevice::Loaded {
  isa::CodeObject code;
  std::unique_ptr<emu::Emulator> emulator;
};

EmuDevice::EmuDevice(arch::Arch arch, std::function<void(emu::Emulator&)> on_load)
    : arch_(std::move(arch)), on_load_(std::move(on_load)) {
  info_.backend = "emu";
  info_.name = "functional emulator (" + arch_.name + ")";
  info_.arch = arch_.name;
  info_.arch_detail = arch_.name;
  info_.wave_size = 64;
  // No CUs: the emulator runs workgroups one after another.  Its counters
  // (s_memtime, s_memrealtime) count each wave's instructions, or the cycle
  // model's clock when one is attached: one rate for both.
  info_.compute_units = 0;
  info_.core_clock_khz = arch_.timing.clock_mhz * 1000;
  info_.timer_khz = info_.core_clock_khz;
}

EmuDevice::~EmuDevice() = default;

Kernel EmuDevice::load_kernel(const std::vector<std::uint8_t>& code_object, const std::string& kernel_name) {
  try {
    return load_kernel(isa::parse_code_object(code_object, "code object of " + kernel_name), kernel_name);
  } catch (const isa::IsaError& e) {
    throw DeviceError(e.what());
  }
}

Kernel EmuDevice::load_kernel(isa::CodeObject code_object, const std::string& kernel_name) {
  auto l = std::make_unique<Loaded>();
  l->code = std::move(code_object);
  check_code_object_arch(info_, l->code.arch);
  l->emulator = std::make_unique<emu::Emulator>(l->code, kernel_name, arch_);
  if (const std::vector<std::uint8_t>& image = l->emulator->loaded_image(); !image.empty()) {
    const std::string key = isa::sha256_hex(l->code.bytes);
    auto [at, fresh] = mapped_.try_emplace(key, 0);
    if (fresh) {
      at->second = memory_.allocate(image.size(), l->code.path + " (loaded)");
      memory_.write(at->second, image.data(), image.size());
    }
    l->emulator->map_code_object(at->second);
  }
  if (on_load_) on_load_(*l->emulator);
  Kernel k;
  k.handle = l.get();
  k.name = kernel_name;
  k.arguments = isa::explicit_arguments(l->emulator->kernel());
  loaded_.push_back(std::move(l));
  return k;
}

std::uint64_t EmuDevice::allocate(std::size_t bytes, const std::string& what) {
  return memory_.allocate(bytes ? bytes : 1, what);
}

void EmuDevice::copy_to_device(std::uint64_t dst, const void* src, std::size_t bytes) {
  if (!bytes) return;
  if (!memory_.find(dst, bytes)) throw DeviceError("copy to device: " + std::to_string(bytes) + " bytes do not fit the buffer");
  memory_.write(dst, src, bytes);
}

void EmuDevice::copy_to_host(void* dst, std::uint64_t src, std::size_t bytes) {
  if (!bytes) return;
  if (!memory_.find(src, bytes)) throw DeviceError("copy to host: " + std::to_string(bytes) + " bytes do not fit the buffer");
  memory_.read(src, dst, bytes);
}

void EmuDevice::fill(std::uint64_t dst, std::uint8_t value, std::size_t bytes) {
  std::uint8_t* p = memory_.find(dst, bytes);
  if (bytes && !p) throw DeviceError("fill: " + std::to_string(bytes) + " bytes do not fit the buffer");
  for (std::size_t i = 0; i < bytes; ++i) p[i] = value;
}

emu::Emulator& EmuDevice::emulator(const Kernel& kernel) { return *static_cast<Loaded*>(kernel.handle)->emulator; }

void EmuDevice::launch(const Kernel& kernel, Dim3 grid, Dim3 block, unsigned dynamic_lds,
                       const std::vector<std::uint64_t>& arguments) {
  auto* l = static_cast<Loaded*>(kernel.handle);
  l->emulator->set_dynamic_lds(dynamic_lds);
  emu::Launch launch;
  launch.grid = {grid.x, grid.y, grid.z};
  launch.block = {block.x, block.y, block.z};
  launch.args = arguments;
  last_stats_ = l->emulator->run(memory_, launch);
}

int EmuDevice::mark() { throw DeviceError("the functional emulator has no clock (time a kernel with tilelab sim --timing)"); }
double EmuDevice::seconds_between(int, int) { return mark(); }

}  // namespace tilelab::hw
