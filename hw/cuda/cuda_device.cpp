#include "hw/cuda/cuda_device.hpp"

#include <dlfcn.h>


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
using CUdeviceptr = unsigned long long;

struct Driver {
  void* lib = nullptr;
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDeviceGetName)(char*, int, CUdevice);
  CUresult (*cuCtxCreate)(CUcontext*, unsigned, CUdevice);
  CUresult (*cuCtxDestroy)(CUcontext);
  CUresult (*cuModuleLoadData)(CUmodule*, const void*);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuMemAlloc)(CUdeviceptr*, std::size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, std::size_t);
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, std::size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void**, void**);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuGetErrorName)(CUresult, const char**);

  template <class F>
  void resolve(F& fn, const char* name, const char* versioned = nullptr) {
    void* sym = versioned ? dlsym(lib, versioned) : nullptr;
    if (!sym) sym = dlsym(lib, name);
    if (!sym) throw DeviceError(std::string("libcuda.so.1 lacks ") + name);
    fn = reinterpret_cast<F>(sym);
  }

  Driver() {
    lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) throw DeviceError("no NVIDIA driver: cannot load libcuda.so.1 (" + std::string(dlerror()) + ")");
    resolve(cuInit, "cuInit");
    resolve(cuDeviceGet, "cuDeviceGet");
    resolve(cuDeviceGetName, "cuDeviceGetName");
    resolve(cuCtxCreate, "cuCtxCreate", "cuCtxCreate_v2");
    resolve(cuCtxDestroy, "cuCtxDestroy", "cuCtxDestroy_v2");
    resolve(cuModuleLoadData, "cuModuleLoadData");
    resolve(cuModuleGetFunction, "cuModuleGetFunction");
    resolve(cuMemAlloc, "cuMemAlloc", "cuMemAlloc_v2");
    resolve(cuMemFree, "cuMemFree", "cuMemFree_v2");
    resolve(cuMemcpyHtoD, "cuMemcpyHtoD", "cuMemcpyHtoD_v2");
    resolve(cuMemcpyDtoH, "cuMemcpyDtoH", "cuMemcpyDtoH_v2");
    resolve(cuLaunchKernel, "cuLaunchKernel");
    resolve(cuCtxSynchronize, "cuCtxSynchronize");
    resolve(cuGetErrorName, "cuGetErrorName");
  }

  void check(CUresult r, const char* call) const {
    if (r == 0) return;
    const char* name = nullptr;
    if (cuGetErrorName(r, &name) != 0 || !name) name = "unknown error";
    throw DeviceError(std::string(call) + " failed: " + name + " (" + std::to_string(r) + ")");
  }
};

class CudaDevice final : public Device {
 public:
  explicit CudaDevice(int ordinal) {
    d_.check(d_.cuInit(0), "cuInit");
    d_.check(d_.cuDeviceGet(&device_, ordinal), "cuDeviceGet");
    char buf[256] = {};
    d_.check(d_.cuDeviceGetName(buf, sizeof buf, device_), "cuDeviceGetName");
    name_ = buf;
    d_.check(d_.cuCtxCreate(&ctx_, 0, device_), "cuCtxCreate");
  }
  ~CudaDevice() override {
    if (ctx_) d_.cuCtxDestroy(ctx_);  // modules and allocations go with the context
  }

  std::string name() const override { return name_; }

  Kernel load_kernel(const std::vector<std::uint8_t>& code, const std::string& kernel_name) override {
    CUmodule mod = nullptr;
    d_.check(d_.cuModuleLoadData(&mod, code.data()), "cuModuleLoadData");
    modules_.push_back(mod);
    CUfunction fn = nullptr;
    d_.check(d_.cuModuleGetFunction(&fn, mod, kernel_name.c_str()), ("cuModuleGetFunction(" + kernel_name + ")").c_str());
    return {fn, kernel_name};
  }

  Buffer allocate(std::size_t bytes) override {
    CUdeviceptr p = 0;
    d_.check(d_.cuMemAlloc(&p, bytes), "cuMemAlloc");
    return {p, bytes};
  }
  void release(Buffer& b) override {
    if (b.address) d_.check(d_.cuMemFree(b.address), "cuMemFree");
    b = {};
  }
  void copy_to_device(const Buffer& dst, const void* src, std::size_t bytes) override {
    if (bytes > dst.bytes) throw DeviceError("copy_to_device: " + std::to_string(bytes) + " bytes into a smaller buffer");
    d_.check(d_.cuMemcpyHtoD(dst.address, src, bytes), "cuMemcpyHtoD");
  }
  void copy_to_host(void* dst, const Buffer& src, std::size_t bytes) override {
    if (bytes > src.bytes) throw DeviceError("copy_to_host: " + std::to_string(bytes) + " bytes from a smaller buffer");
    d_.check(d_.cuMemcpyDtoH(dst, src.address, bytes), "cuMemcpyDtoH");
  }
  void launch(const Kernel& k, Dim3 g, Dim3 b, unsigned shared, const std::vector<void*>& args) override {
    std::vector<void*> a = args;
    d_.check(d_.cuLaunchKernel(static_cast<CUfunction>(k.handle), g.x, g.y, g.z, b.x, b.y, b.z, shared, nullptr,
                               a.data(), nullptr),
             ("cuLaunchKernel(" + k.name + ")").c_str());
  }
  void synchronize() override { d_.check(d_.cuCtxSynchronize(), "cuCtxSynchronize"); }

 private:
  Driver d_;
  CUdevice device_ = 0;
  CUcontext ctx_ = nullptr;
  std::string name_;
  std::vector<CUmodule> modules_;
};

}  // namespace

std::unique_ptr<Device> open_cuda_device(int ordinal) { return std::make_unique<CudaDevice>(ordinal); }

}  // namespace tilelab::hw
