#include "hw/hip/hip_device.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

#include "hw/hip/hip_api.hpp"
#include "sim/isa/code_object.hpp"

namespace tilelab::hw {

namespace {

using namespace hip;

struct Runtime {
  void* lib = nullptr;
  std::string path;
  OpaqueApi api;

  Runtime() {
    std::vector<std::string> tried;
    if (const char* own = std::getenv("TILELAB_HIP_LIBRARY"); own && *own) {
      // The user's library or nothing: falling back to another would time a runtime they did not ask for.
      lib = dlopen(own, RTLD_NOW | RTLD_LOCAL);
      if (!lib) {
        const char* why = dlerror();
        throw NoDevice(std::string("TILELAB_HIP_LIBRARY=") + own + ": cannot load it (" + (why ? why : "dlopen failed") + ")");
      }
      path = own;
    }
    for (const char* name : {"libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so", "/opt/rocm/lib/libamdhip64.so"})
      if (!lib) tried.push_back(name);
    std::string errors;
    for (const std::string& name : tried) {
      lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (lib) {
        path = name;
        break;
      }
    }
    if (!lib) {
      std::string names;
      for (const std::string& t : tried) names += (names.empty() ? "" : ", ") + t;
      throw NoDevice("no HIP runtime: cannot load libamdhip64 (tried " + names + ")");
    }
#define TILELAB_HIP_RESOLVE(name, type) resolve(api.name, #name);
    TILELAB_HIP_API(TILELAB_HIP_RESOLVE)
#undef TILELAB_HIP_RESOLVE
    api.hipGetDevicePropertiesR0600 =
        reinterpret_cast<decltype(api.hipGetDevicePropertiesR0600)>(dlsym(lib, "hipGetDevicePropertiesR0600"));
  }

  template <class F>
  void resolve(F& fn, const char* name) {
    fn = reinterpret_cast<F>(dlsym(lib, name));
    if (!fn) throw DeviceError(path + " lacks " + name + ": not a HIP runtime tilelab can use");
  }

  void check(int r, const std::string& call) const {
    if (r == kSuccess) return;
    const char* text = api.hipGetErrorString(r);
    throw DeviceError(call + " failed: " + (text ? text : "unknown error") + " (" + std::to_string(r) + ")");
  }
};

std::string version_text(int v) {  // HIP: major * 10^7 + minor * 10^5 + patch
  return std::to_string(v / 10000000) + "." + std::to_string(v / 100000 % 100) + "." + std::to_string(v % 100000);
}

class HipDevice final : public Device {
 public:
  explicit HipDevice(int ordinal) {
    const int init = r_.api.hipInit(0);
    int count = 0;
    const int counted = r_.api.hipGetDeviceCount(&count);
    if (init == kErrorNoDevice || init == kErrorInvalidDevice || counted != kSuccess || count == 0)
      throw NoDevice("no AMD GPU: the HIP runtime (" + r_.path + ") finds no device");
    if (ordinal >= count) throw NoDevice("no AMD GPU " + std::to_string(ordinal) + " (" + std::to_string(count) + " found)");
    r_.check(init, "hipInit");
    r_.check(r_.api.hipSetDevice(ordinal), "hipSetDevice");
    read_properties(ordinal);
    if (info_.arch.rfind("gfx", 0) != 0)
      throw NoDevice("device " + std::to_string(ordinal) + " (" + info_.name + ") is not an AMD GPU");
    info_.backend = "hip";
    info_.compute_units = attribute(kAttrMultiprocessorCount, ordinal);
    info_.wave_size = attribute(kAttrWarpSize, ordinal);
    info_.core_clock_khz = attribute(kAttrClockRate, ordinal);
    info_.l2_bytes = static_cast<std::uint64_t>(attribute(kAttrL2CacheSize, ordinal));
    int wall = 0;  // HIP 5 has no wall-clock attribute: the rate stays unknown (0)
    if (r_.api.hipDeviceGetAttribute(&wall, kAttrWallClockRate, ordinal) == kSuccess) info_.timer_khz = wall;
    // MI300 / MI350 put a 256 MB Infinity Cache (MALL) behind the L2s.
    const bool mall = info_.arch.rfind("gfx94", 0) == 0 || info_.arch.rfind("gfx95", 0) == 0;
    info_.flush_bytes = 2 * (info_.l2_bytes + (mall ? std::uint64_t{256} << 20 : 0));
    int v = 0;
    r_.check(r_.api.hipDriverGetVersion(&v), "hipDriverGetVersion");
    info_.driver_version = "HIP driver " + version_text(v);
    r_.check(r_.api.hipRuntimeGetVersion(&v), "hipRuntimeGetVersion");
    info_.runtime_version = "HIP runtime " + version_text(v) + " (" + r_.path + ")";
  }
  ~HipDevice() override {
    for (void* e : events_) r_.api.hipEventDestroy(e);
    for (void* p : allocations_) r_.api.hipFree(p);
    for (void* m : modules_) r_.api.hipModuleUnload(m);
  }

  const DeviceInfo& info() const override { return info_; }

  Kernel load_kernel(const std::vector<std::uint8_t>& code, const std::string& kernel_name) override {
    isa::CodeObject co;
    try {
      co = isa::parse_code_object(code, "code object of " + kernel_name);
    } catch (const isa::IsaError& e) {
      throw DeviceError(e.what());
    }
    check_code_object_arch(info_, co.arch);
    Kernel k;
    k.name = kernel_name;
    try {
      k.arguments = isa::explicit_arguments(co.kernel(kernel_name));
    } catch (const isa::IsaError& e) {
      throw DeviceError(e.what());
    }
    void* module = nullptr;
    r_.check(r_.api.hipModuleLoadData(&module, code.data()), "hipModuleLoadData");
    modules_.push_back(module);
    r_.check(r_.api.hipModuleGetFunction(&k.handle, module, kernel_name.c_str()), "hipModuleGetFunction(" + kernel_name + ")");
    return k;
  }
  std::uint64_t allocate(std::size_t bytes, const std::string& what) override {
    void* p = nullptr;
    r_.check(r_.api.hipMalloc(&p, bytes ? bytes : 1), "hipMalloc(" + what + ", " + std::to_string(bytes) + " bytes)");
    allocations_.push_back(p);
    return reinterpret_cast<std::uint64_t>(p);
  }
  void copy_to_device(std::uint64_t dst, const void* src, std::size_t bytes) override {
    r_.check(r_.api.hipMemcpyHtoD(reinterpret_cast<void*>(dst), const_cast<void*>(src), bytes), "hipMemcpyHtoD");
  }
  void copy_to_host(void* dst, std::uint64_t src, std::size_t bytes) override {
    r_.check(r_.api.hipMemcpyDtoH(dst, reinterpret_cast<void*>(src), bytes), "hipMemcpyDtoH");
  }
  void fill(std::uint64_t dst, std::uint8_t value, std::size_t bytes) override {
    r_.check(r_.api.hipMemsetD8(reinterpret_cast<void*>(dst), value, bytes), "hipMemsetD8");
  }
  void launch(const Kernel& k, Dim3 g, Dim3 b, unsigned dynamic_lds, const std::vector<std::uint64_t>& arguments) override {
    std::vector<std::uint8_t> buffer = argument_buffer(k, arguments);
    std::size_t size = buffer.size();
    void* extra[] = {kLaunchParamBufferPointer, buffer.data(), kLaunchParamBufferSize, &size, kLaunchParamEnd};
    r_.check(r_.api.hipModuleLaunchKernel(k.handle, g.x, g.y, g.z, b.x, b.y, b.z, dynamic_lds, nullptr, nullptr, extra),
             "hipModuleLaunchKernel(" + k.name + ")");
  }
  void synchronize() override { r_.check(r_.api.hipDeviceSynchronize(), "hipDeviceSynchronize"); }
  bool has_clock() const override { return true; }
  int mark() override {
    void* e = nullptr;
    r_.check(r_.api.hipEventCreate(&e), "hipEventCreate");
    events_.push_back(e);
    r_.check(r_.api.hipEventRecord(e, nullptr), "hipEventRecord");
    return static_cast<int>(events_.size() - 1);
  }
  double seconds_between(int a, int b) override {
    r_.check(r_.api.hipEventSynchronize(events_.at(static_cast<std::size_t>(b))), "hipEventSynchronize");
    float ms = 0;
    r_.check(r_.api.hipEventElapsedTime(&ms, events_.at(static_cast<std::size_t>(a)), events_.at(static_cast<std::size_t>(b))),
             "hipEventElapsedTime");
    return ms * 1e-3;
  }

 private:
  int attribute(int attr, int ordinal) {
    int v = 0;
    r_.check(r_.api.hipDeviceGetAttribute(&v, attr, ordinal), "hipDeviceGetAttribute(" + std::to_string(attr) + ")");
    return v;
  }
  // The name and the arch string live only in the properties struct: the
  // R0600 layout where the runtime has it, else the legacy one (HIP 5).
  void read_properties(int ordinal) {
    std::vector<char> props(4096, 0);
    unsigned arch_at = kPropsLegacyArchOffset;
    if (r_.api.hipGetDevicePropertiesR0600) {
      r_.check(r_.api.hipGetDevicePropertiesR0600(props.data(), ordinal), "hipGetDevicePropertiesR0600");
      arch_at = kPropsR0600ArchOffset;
    } else {
      r_.check(r_.api.hipGetDeviceProperties(props.data(), ordinal), "hipGetDeviceProperties");
    }
    info_.name = std::string(props.data(), strnlen(props.data(), kPropsNameSize));
    info_.arch_detail = std::string(props.data() + arch_at, strnlen(props.data() + arch_at, kPropsArchSize));
    info_.arch = info_.arch_detail.substr(0, info_.arch_detail.find(':'));
  }

  Runtime r_;
  DeviceInfo info_;
  std::vector<void*> events_, allocations_, modules_;
};

}  // namespace

std::unique_ptr<Device> open_hip_device(int ordinal) { return std::make_unique<HipDevice>(ordinal); }

}  // namespace tilelab::hw
