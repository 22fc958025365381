#include "hw/cuda/cuda_device.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>

namespace tilelab::hw {

namespace {

// The few driver types used, declared here so that no CUDA header is needed
// to build (they match cuda.h's ABI: CUresult is an int enum, handles are
// opaque pointers, device pointers 64-bit).
using CUresult = int;
using CUdevice = int;
using CUcontext = void*;
using CUmodule = void*;
using CUfunction = void*;
using CUstream = void*;
using CUevent = void*;
using CUdeviceptr = unsigned long long;

// cuda.h's values.
constexpr CUresult kNoDevice = 100;                 // CUDA_ERROR_NO_DEVICE
constexpr int kAttrClockRate = 13;                  // CU_DEVICE_ATTRIBUTE_CLOCK_RATE (kHz)
constexpr int kAttrMultiprocessorCount = 16;
constexpr int kAttrL2CacheSize = 38;
constexpr int kAttrComputeCapabilityMajor = 75;
constexpr int kAttrComputeCapabilityMinor = 76;
void* const kLaunchParamBufferPointer = reinterpret_cast<void*>(1);  // CU_LAUNCH_PARAM_BUFFER_POINTER
void* const kLaunchParamBufferSize = reinterpret_cast<void*>(2);
void* const kLaunchParamEnd = nullptr;

struct Driver {
  void* lib = nullptr;
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int*);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDeviceGetName)(char*, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice);
  CUresult (*cuCtxCreate)(CUcontext*, unsigned, CUdevice);
  CUresult (*cuCtxDestroy)(CUcontext);
  CUresult (*cuModuleLoadData)(CUmodule*, const void*);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuFuncGetParamInfo)(CUfunction, std::size_t, std::size_t*, std::size_t*);
  CUresult (*cuMemAlloc)(CUdeviceptr*, std::size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, std::size_t);
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, std::size_t);
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, std::size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void**, void**);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuEventCreate)(CUevent*, unsigned);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuGetErrorName)(CUresult, const char**);

  template <class F>
  void resolve(F& fn, const char* name, const char* versioned = nullptr) {
    void* sym = versioned ? dlsym(lib, versioned) : nullptr;
    if (!sym) sym = dlsym(lib, name);
    if (!sym) throw DeviceError(std::string("libcuda.so.1 lacks ") + name + " (the driver is too old)");
    fn = reinterpret_cast<F>(sym);
  }

  Driver() {
    lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) throw NoDevice("no NVIDIA driver: cannot load libcuda.so.1 (" + std::string(dlerror()) + ")");
    resolve(cuInit, "cuInit");
    resolve(cuDriverGetVersion, "cuDriverGetVersion");
    resolve(cuDeviceGet, "cuDeviceGet");
    resolve(cuDeviceGetName, "cuDeviceGetName");
    resolve(cuDeviceGetAttribute, "cuDeviceGetAttribute");
    resolve(cuCtxCreate, "cuCtxCreate", "cuCtxCreate_v2");
    resolve(cuCtxDestroy, "cuCtxDestroy", "cuCtxDestroy_v2");
    resolve(cuModuleLoadData, "cuModuleLoadData");
    resolve(cuModuleGetFunction, "cuModuleGetFunction");
    resolve(cuFuncGetParamInfo, "cuFuncGetParamInfo");  // CUDA 12.4 drivers and newer
    resolve(cuMemAlloc, "cuMemAlloc", "cuMemAlloc_v2");
    resolve(cuMemFree, "cuMemFree", "cuMemFree_v2");
    resolve(cuMemcpyHtoD, "cuMemcpyHtoD", "cuMemcpyHtoD_v2");
    resolve(cuMemcpyDtoH, "cuMemcpyDtoH", "cuMemcpyDtoH_v2");
    resolve(cuMemsetD8, "cuMemsetD8", "cuMemsetD8_v2");
    resolve(cuLaunchKernel, "cuLaunchKernel");
    resolve(cuCtxSynchronize, "cuCtxSynchronize");
    resolve(cuEventCreate, "cuEventCreate");
    resolve(cuEventRecord, "cuEventRecord");
    resolve(cuEventSynchronize, "cuEventSynchronize");
    resolve(cuEventElapsedTime, "cuEventElapsedTime", "cuEventElapsedTime_v2");
    resolve(cuEventDestroy, "cuEventDestroy", "cuEventDestroy_v2");
    resolve(cuGetErrorName, "cuGetErrorName");
  }

  std::string error_name(CUresult r) const {
    const char* name = nullptr;
    if (cuGetErrorName(r, &name) != 0 || !name) name = "unknown error";
    return std::string(name) + " (" + std::to_string(r) + ")";
  }
  void check(CUresult r, const std::string& call) const {
    if (r != 0) throw DeviceError(call + " failed: " + error_name(r));
  }
};

// The sm_NN a PTX text targets (".target sm_90"), or 0 when `code` is not PTX.
int ptx_target(const std::vector<std::uint8_t>& code) {
  const std::string text(code.begin(), code.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(code.size(), 4096)));
  const std::size_t at = text.find(".target sm_");
  if (at == std::string::npos) return 0;
  return std::atoi(text.c_str() + at + 11);
}

class CudaDevice final : public Device {
 public:
  explicit CudaDevice(int ordinal) {
    const CUresult init = d_.cuInit(0);
    if (init == kNoDevice) throw NoDevice("no NVIDIA GPU: the driver finds no device");
    d_.check(init, "cuInit");
    if (d_.cuDeviceGet(&device_, ordinal) != 0) throw NoDevice("no NVIDIA GPU " + std::to_string(ordinal));
    char buf[256] = {};
    d_.check(d_.cuDeviceGetName(buf, sizeof buf, device_), "cuDeviceGetName");
    info_.backend = "cuda";
    info_.name = buf;
    const int major = attribute(kAttrComputeCapabilityMajor), minor = attribute(kAttrComputeCapabilityMinor);
    sm_ = 10 * major + minor;
    info_.arch = "sm_" + std::to_string(sm_);
    info_.arch_detail = "compute capability " + std::to_string(major) + "." + std::to_string(minor);
    info_.compute_units = attribute(kAttrMultiprocessorCount);
    info_.wave_size = 32;
    info_.core_clock_khz = attribute(kAttrClockRate);
    info_.timer_khz = 1e6;  // %globaltimer counts nanoseconds
    info_.l2_bytes = static_cast<std::uint64_t>(attribute(kAttrL2CacheSize));
    info_.flush_bytes = 4 * info_.l2_bytes;  // no cache beyond L2 on NVIDIA
    int version = 0;
    d_.check(d_.cuDriverGetVersion(&version), "cuDriverGetVersion");
    info_.driver_version = "CUDA driver API " + std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
    info_.runtime_version = info_.driver_version;  // the driver API is the runtime here
    d_.check(d_.cuCtxCreate(&ctx_, 0, device_), "cuCtxCreate");
  }
  ~CudaDevice() override {
    for (CUevent e : events_) d_.cuEventDestroy(e);
    if (ctx_) d_.cuCtxDestroy(ctx_);  // modules and allocations go with the context
  }

  const DeviceInfo& info() const override { return info_; }

  Kernel load_kernel(const std::vector<std::uint8_t>& code, const std::string& kernel_name) override {
    if (const int target = ptx_target(code); target > sm_)
      throw DeviceError("the code object is built for sm_" + std::to_string(target) + ", the device (" + info_.name +
                        ") is " + info_.arch);
    std::vector<std::uint8_t> image = code;
    image.push_back(0);  // PTX text must end in NUL; a cubin ignores the byte
    CUmodule mod = nullptr;
    d_.check(d_.cuModuleLoadData(&mod, image.data()), "cuModuleLoadData");
    CUfunction fn = nullptr;
    d_.check(d_.cuModuleGetFunction(&fn, mod, kernel_name.c_str()), "cuModuleGetFunction(" + kernel_name + ")");
    Kernel k{fn, kernel_name, {}};
    for (std::size_t i = 0;; ++i) {  // the driver's parameter table: offsets and sizes, in order
      std::size_t offset = 0, size = 0;
      if (d_.cuFuncGetParamInfo(fn, i, &offset, &size) != 0) break;
      k.arguments.push_back({static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(size), ""});
    }
    return k;
  }

  std::uint64_t allocate(std::size_t bytes, const std::string& what) override {
    CUdeviceptr p = 0;
    d_.check(d_.cuMemAlloc(&p, bytes ? bytes : 1), "cuMemAlloc(" + what + ", " + std::to_string(bytes) + " bytes)");
    return p;
  }
  void copy_to_device(std::uint64_t dst, const void* src, std::size_t bytes) override {
    d_.check(d_.cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD");
  }
  void copy_to_host(void* dst, std::uint64_t src, std::size_t bytes) override {
    d_.check(d_.cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
  }
  void fill(std::uint64_t dst, std::uint8_t value, std::size_t bytes) override {
    d_.check(d_.cuMemsetD8(dst, value, bytes), "cuMemsetD8");
  }
  void launch(const Kernel& k, Dim3 g, Dim3 b, unsigned dynamic_lds,
              const std::vector<std::uint64_t>& arguments) override {
    std::vector<std::uint8_t> buffer = argument_buffer(k, arguments);
    std::size_t size = buffer.size();
    void* extra[] = {kLaunchParamBufferPointer, buffer.data(), kLaunchParamBufferSize, &size, kLaunchParamEnd};
    d_.check(d_.cuLaunchKernel(static_cast<CUfunction>(k.handle), g.x, g.y, g.z, b.x, b.y, b.z, dynamic_lds, nullptr, nullptr,
                               extra),
             "cuLaunchKernel(" + k.name + ")");
  }
  void synchronize() override { d_.check(d_.cuCtxSynchronize(), "cuCtxSynchronize"); }
  bool has_clock() const override { return true; }
  int mark() override {
    CUevent e = nullptr;
    d_.check(d_.cuEventCreate(&e, 0), "cuEventCreate");
    events_.push_back(e);
    d_.check(d_.cuEventRecord(e, nullptr), "cuEventRecord");
    return static_cast<int>(events_.size() - 1);
  }
  double seconds_between(int a, int b) override {
    d_.check(d_.cuEventSynchronize(events_.at(static_cast<std::size_t>(b))), "cuEventSynchronize");
    float ms = 0;
    d_.check(d_.cuEventElapsedTime(&ms, events_.at(static_cast<std::size_t>(a)), events_.at(static_cast<std::size_t>(b))),
             "cuEventElapsedTime");
    return ms * 1e-3;
  }

 private:
  int attribute(int attr) {
    int v = 0;
    d_.check(d_.cuDeviceGetAttribute(&v, attr, device_), "cuDeviceGetAttribute(" + std::to_string(attr) + ")");
    return v;
  }

  Driver d_;
  CUdevice device_ = 0;
  CUcontext ctx_ = nullptr;
  int sm_ = 0;
  DeviceInfo info_;
  std::vector<CUevent> events_;
};

}  // namespace

std::unique_ptr<Device> open_cuda_device(int ordinal) { return std::make_unique<CudaDevice>(ordinal); }

}  // namespace tilelab::hw
