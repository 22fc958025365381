// The part of the HIP runtime's C API that tilelab calls, declared without
// ROCm: every function's type is written once here, with the handle types as
// template parameters.  The HIP device (hip_device.cpp) instantiates them
// with opaque pointers and resolves the functions from libamdhip64 by dlsym;
// hip_api_check.cpp instantiates them with the real header's types
// (Debian's libamdhip64-dev) and makes the compiler prove every signature is
// HIP's own; the emulator-backed shim (hip_shim.cpp) defines them.
//
// Facts (docs/facts/hw-facts.md §1): handles are opaque pointers,
// hipError_t an int enum; the attribute numbers below are stable across HIP
// 5.x-7.x (new ones are appended).
#pragma once

#include <type_traits>

namespace tilelab::hw::hip {

// X(name, type): the functions resolved from the runtime and checked against
// its header.  Types use Error, Attribute, Module, Function, Stream, Event,
// DeviceProp (template parameters of Api).
#define TILELAB_HIP_API(X)                                                                               \
  X(hipInit, Error (*)(unsigned))                                                                        \
  X(hipDriverGetVersion, Error (*)(int*))                                                                \
  X(hipRuntimeGetVersion, Error (*)(int*))                                                               \
  X(hipGetDeviceCount, Error (*)(int*))                                                                  \
  X(hipSetDevice, Error (*)(int))                                                                        \
  X(hipDeviceGetAttribute, Error (*)(int*, Attribute, int))                                              \
  X(hipGetDeviceProperties, Error (*)(DeviceProp*, int))                                                 \
  X(hipModuleLoadData, Error (*)(Module*, const void*))                                                  \
  X(hipModuleGetFunction, Error (*)(Function*, Module, const char*))                                     \
  X(hipModuleUnload, Error (*)(Module))                                                                  \
  X(hipModuleLaunchKernel, Error (*)(Function, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, \
                                     unsigned, Stream, void**, void**))                                  \
  X(hipMalloc, Error (*)(void**, decltype(sizeof 0)))                                                    \
  X(hipFree, Error (*)(void*))                                                                           \
  X(hipMemcpyHtoD, Error (*)(void*, void*, decltype(sizeof 0)))                                          \
  X(hipMemcpyDtoH, Error (*)(void*, void*, decltype(sizeof 0)))                                          \
  X(hipMemsetD8, Error (*)(void*, unsigned char, decltype(sizeof 0)))                                    \
  X(hipDeviceSynchronize, Error (*)())                                                                   \
  X(hipEventCreate, Error (*)(Event*))                                                                   \
  X(hipEventRecord, Error (*)(Event, Stream))                                                            \
  X(hipEventSynchronize, Error (*)(Event))                                                               \
  X(hipEventElapsedTime, Error (*)(float*, Event, Event))                                                \
  X(hipEventDestroy, Error (*)(Event))                                                                   \
  X(hipGetErrorString, const char* (*)(Error))

template <class Error, class Attribute, class Module, class Function, class Stream, class Event, class DeviceProp>
struct Api {
#define TILELAB_HIP_MEMBER(name, type) std::type_identity_t<type> name = nullptr;
  TILELAB_HIP_API(TILELAB_HIP_MEMBER)
#undef TILELAB_HIP_MEMBER
  // ROCm 6 and newer: the properties in the R0600 layout (the unversioned
  // symbol fills the old layout for callers that find it by dlsym).  Not in
  // HIP 5's header, so not checked against one; its layout facts are below.
  Error (*hipGetDevicePropertiesR0600)(DeviceProp*, int) = nullptr;
};

// The runtime as the HIP device calls it: no ROCm types needed.
using OpaqueApi = Api<int, int, void*, void*, void*, void*, void>;

// hipError_t values.
constexpr int kSuccess = 0;
constexpr int kErrorNoDevice = 100;
constexpr int kErrorInvalidDevice = 101;

// hipDeviceAttribute_t values.
constexpr int kAttrClockRate = 5;                // kHz
constexpr int kAttrL2CacheSize = 19;             // bytes
constexpr int kAttrMultiprocessorCount = 63;
constexpr int kAttrWarpSize = 87;
constexpr int kAttrWallClockRate = 10017;        // kHz of s_memrealtime (newer HIP only)

// hipDeviceProp_t layouts: the name is at 0 in both; the arch string
// ("gfx950:sramecc+:xnack-") at 1160 of the R0600 layout (1472 bytes) and at
// 396 of the legacy one (792 bytes; hip_api_check.cpp proves these two).
constexpr unsigned kPropsR0600Size = 1472, kPropsR0600ArchOffset = 1160;
constexpr unsigned kPropsLegacySize = 792, kPropsLegacyArchOffset = 396;
constexpr unsigned kPropsNameSize = 256, kPropsArchSize = 256;

// hipModuleLaunchKernel's `extra`: {BUFFER_POINTER, buffer, BUFFER_SIZE, &size, END}.
inline void* const kLaunchParamBufferPointer = reinterpret_cast<void*>(1);
inline void* const kLaunchParamBufferSize = reinterpret_cast<void*>(2);
inline void* const kLaunchParamEnd = reinterpret_cast<void*>(3);

}  // namespace tilelab::hw::hip
