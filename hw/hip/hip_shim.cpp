// libtilelab_hip_shim.so: the part of HIP's module API the HIP backend
// calls (hw/hip/hip_api.hpp), implemented on the functional emulator
// (hw::EmuDevice), so that the backend's whole path — dlopen, device facts,
// the properties layout, argument packing, launch, events, memory — runs in
// CI without an AMD GPU:
//   TILELAB_HIP_LIBRARY=<build>/lib/libtilelab_hip_shim.so tilelab run KERNEL --device hip
// One device, TILELAB_HIP_SHIM_ARCH (gfx950 when unset).  Launches run to
// completion before they return; events read the host's steady clock, so
// event times are the emulator's wall time, not a model of the GPU's.
// The device's counters are the emulator's (hw/emu/emu_device.hpp).
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "hw/emu/emu_device.hpp"
#include "hw/hip/hip_api.hpp"

namespace {

using namespace tilelab;
constexpr int kInvalidValue = 1, kNotInitialized = 3, kInvalidImage = 200, kNotFound = 500, kLaunchFailure = 719;

struct Module {
  std::vector<std::uint8_t> code;
};
struct Function {
  hw::Kernel kernel;
};

struct Shim {
  std::unique_ptr<hw::EmuDevice> device;
  std::vector<std::unique_ptr<Module>> modules;
  std::vector<std::unique_ptr<Function>> functions;
  std::vector<std::unique_ptr<double>> events;  // seconds on the steady clock when recorded
  std::string last_error;
};

Shim& shim() {
  static Shim s;
  return s;
}

std::string arch_name() {
  const char* a = std::getenv("TILELAB_HIP_SHIM_ARCH");
  return a && *a ? a : "gfx950";
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Runs f, turning exceptions into HIP error codes (the message kept for hipGetErrorString).
template <class F>
int guarded(int error, F f) {
  if (!shim().device) return kNotInitialized;
  try {
    f();
    return hw::hip::kSuccess;
  } catch (const std::exception& e) {
    shim().last_error = e.what();
    return error;
  }
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int hipInit(unsigned) {
  try {
    if (!shim().device) shim().device = std::make_unique<hw::EmuDevice>(arch::load_arch(arch_name()));
    return hw::hip::kSuccess;
  } catch (const std::exception& e) {
    shim().last_error = e.what();
    return hw::hip::kErrorNoDevice;
  }
}
__attribute__((visibility("default"))) int hipDriverGetVersion(int* v) { return *v = 0, hw::hip::kSuccess; }
__attribute__((visibility("default"))) int hipRuntimeGetVersion(int* v) { return *v = 0, hw::hip::kSuccess; }
__attribute__((visibility("default"))) int hipGetDeviceCount(int* n) {
  *n = shim().device ? 1 : 0;
  return shim().device ? hw::hip::kSuccess : kNotInitialized;
}
__attribute__((visibility("default"))) int hipSetDevice(int d) { return d == 0 ? hw::hip::kSuccess : hw::hip::kErrorInvalidDevice; }

__attribute__((visibility("default"))) int hipDeviceGetAttribute(int* v, int attr, int) {
  if (!shim().device) return kNotInitialized;
  const hw::DeviceInfo& i = shim().device->info();
  switch (attr) {
    case hw::hip::kAttrClockRate: *v = static_cast<int>(i.core_clock_khz); break;
    case hw::hip::kAttrL2CacheSize: *v = 4 << 20; break;
    case hw::hip::kAttrMultiprocessorCount: *v = 1; break;
    case hw::hip::kAttrWarpSize: *v = i.wave_size; break;
    case hw::hip::kAttrWallClockRate: *v = static_cast<int>(i.timer_khz); break;
    default: return kInvalidValue;
  }
  return hw::hip::kSuccess;
}

// Both layouts: the name at 0, the arch string where each layout has it.
static int properties(char* p, unsigned arch_at) {
  if (!shim().device) return kNotInitialized;
  const std::string name = "tilelab HIP shim (functional emulator, " + arch_name() + ")";
  const std::string arch = arch_name() + ":sramecc+:xnack-";
  std::strncpy(p, name.c_str(), hw::hip::kPropsNameSize - 1);
  std::strncpy(p + arch_at, arch.c_str(), hw::hip::kPropsArchSize - 1);
  return hw::hip::kSuccess;
}
__attribute__((visibility("default"))) int hipGetDeviceProperties(void* p, int) {
  std::memset(p, 0, hw::hip::kPropsLegacySize);
  return properties(static_cast<char*>(p), hw::hip::kPropsLegacyArchOffset);
}
__attribute__((visibility("default"))) int hipGetDevicePropertiesR0600(void* p, int) {
  std::memset(p, 0, hw::hip::kPropsR0600Size);
  return properties(static_cast<char*>(p), hw::hip::kPropsR0600ArchOffset);
}

__attribute__((visibility("default"))) int hipModuleLoadData(void** module, const void* image) {
  return guarded(kInvalidImage, [&] {
    // The ELF's own section table bounds it: e_shoff + e_shnum x e_shentsize.
    const auto* b = static_cast<const std::uint8_t*>(image);
    std::uint64_t shoff = 0;
    std::uint16_t shentsize = 0, shnum = 0;
    std::memcpy(&shoff, b + 0x28, 8);
    std::memcpy(&shentsize, b + 0x3a, 2);
    std::memcpy(&shnum, b + 0x3c, 2);
    auto m = std::make_unique<Module>();
    m->code.assign(b, b + shoff + std::uint64_t{shentsize} * shnum);
    *module = m.get();
    shim().modules.push_back(std::move(m));
  });
}
__attribute__((visibility("default"))) int hipModuleGetFunction(void** function, void* module, const char* name) {
  return guarded(kNotFound, [&] {
    auto f = std::make_unique<Function>();
    f->kernel = shim().device->load_kernel(static_cast<Module*>(module)->code, name);
    *function = f.get();
    shim().functions.push_back(std::move(f));
  });
}
__attribute__((visibility("default"))) int hipModuleUnload(void*) { return hw::hip::kSuccess; }

// Only the buffer form of the arguments (what the backend passes): each
// explicit argument is read back from its metadata slot.
__attribute__((visibility("default"))) int hipModuleLaunchKernel(void* function, unsigned gx, unsigned gy, unsigned gz,
                                                                 unsigned bx, unsigned by, unsigned bz, unsigned lds,
                                                                 void*, void** params, void** extra) {
  if (params || !extra) return kInvalidValue;
  const std::uint8_t* buffer = nullptr;
  const std::size_t* size = nullptr;
  for (void** e = extra; *e != hw::hip::kLaunchParamEnd; e += 2) {
    if (e[0] == hw::hip::kLaunchParamBufferPointer) buffer = static_cast<const std::uint8_t*>(e[1]);
    else if (e[0] == hw::hip::kLaunchParamBufferSize) size = static_cast<const std::size_t*>(e[1]);
    else return kInvalidValue;
  }
  if (!buffer || !size) return kInvalidValue;
  const hw::Kernel& k = static_cast<Function*>(function)->kernel;
  std::vector<std::uint64_t> values;
  for (const auto& slot : k.arguments) {
    if (std::size_t{slot.offset} + slot.size > *size || slot.size > 8) return kInvalidValue;
    std::uint64_t v = 0;
    std::memcpy(&v, buffer + slot.offset, slot.size);
    values.push_back(v);
  }
  return guarded(kLaunchFailure, [&] { shim().device->launch(k, {gx, gy, gz}, {bx, by, bz}, lds, values); });
}

__attribute__((visibility("default"))) int hipMalloc(void** p, std::size_t bytes) {
  return guarded(2, [&] { *p = reinterpret_cast<void*>(shim().device->allocate(bytes, "hipMalloc")); });
}
__attribute__((visibility("default"))) int hipFree(void*) { return hw::hip::kSuccess; }  // freed with the device
__attribute__((visibility("default"))) int hipMemcpyHtoD(void* dst, void* src, std::size_t bytes) {
  return guarded(kInvalidValue, [&] { shim().device->copy_to_device(reinterpret_cast<std::uint64_t>(dst), src, bytes); });
}
__attribute__((visibility("default"))) int hipMemcpyDtoH(void* dst, void* src, std::size_t bytes) {
  return guarded(kInvalidValue, [&] { shim().device->copy_to_host(dst, reinterpret_cast<std::uint64_t>(src), bytes); });
}
__attribute__((visibility("default"))) int hipMemsetD8(void* dst, unsigned char value, std::size_t bytes) {
  return guarded(kInvalidValue, [&] { shim().device->fill(reinterpret_cast<std::uint64_t>(dst), value, bytes); });
}
__attribute__((visibility("default"))) int hipDeviceSynchronize() { return hw::hip::kSuccess; }

__attribute__((visibility("default"))) int hipEventCreate(void** e) {
  shim().events.push_back(std::make_unique<double>(0));
  *e = shim().events.back().get();
  return hw::hip::kSuccess;
}
__attribute__((visibility("default"))) int hipEventRecord(void* e, void*) { return *static_cast<double*>(e) = now(), hw::hip::kSuccess; }
__attribute__((visibility("default"))) int hipEventSynchronize(void*) { return hw::hip::kSuccess; }
__attribute__((visibility("default"))) int hipEventElapsedTime(float* ms, void* a, void* b) {
  *ms = static_cast<float>((*static_cast<double*>(b) - *static_cast<double*>(a)) * 1e3);
  return hw::hip::kSuccess;
}
__attribute__((visibility("default"))) int hipEventDestroy(void*) { return hw::hip::kSuccess; }

__attribute__((visibility("default"))) const char* hipGetErrorString(int e) {
  static thread_local std::string text;
  text = e == hw::hip::kSuccess ? "hipSuccess" : "shim error " + std::to_string(e) + ": " + shim().last_error;
  return text.c_str();
}

}  // extern "C"
