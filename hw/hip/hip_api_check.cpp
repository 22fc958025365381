// Compiled only where HIP's header exists (Debian's libamdhip64-dev): proves
// that every function type in hip_api.hpp is the header's own, and the
// constants and the legacy properties layout are HIP's.  A mismatch is a
// build error naming the function.  Nothing here runs.
#include <hip/hip_runtime_api.h>

#include <cstddef>

#include "hw/hip/hip_api.hpp"

namespace tilelab::hw::hip {
namespace {

using RealApi = Api<hipError_t, hipDeviceAttribute_t, hipModule_t, hipFunction_t, hipStream_t, hipEvent_t, hipDeviceProp_t>;

// static_cast to a function-pointer type compiles only when an overload of
// exactly that type exists: the check works for C++ overloads too.
#define TILELAB_HIP_CHECK(name, type) \
  [[maybe_unused]] constexpr auto name##_is_hips = static_cast<decltype(RealApi::name)>(&::name);
TILELAB_HIP_API(TILELAB_HIP_CHECK)
#undef TILELAB_HIP_CHECK

static_assert(kSuccess == hipSuccess && kErrorNoDevice == hipErrorNoDevice && kErrorInvalidDevice == hipErrorInvalidDevice);
static_assert(kAttrClockRate == hipDeviceAttributeClockRate && kAttrL2CacheSize == hipDeviceAttributeL2CacheSize &&
              kAttrMultiprocessorCount == hipDeviceAttributeMultiprocessorCount &&
              kAttrWarpSize == hipDeviceAttributeWarpSize);
static_assert(sizeof(hipDeviceProp_t) == kPropsLegacySize, "the legacy hipDeviceProp_t layout");
static_assert(offsetof(hipDeviceProp_t, gcnArchName) == kPropsLegacyArchOffset, "gcnArchName in the legacy layout");
static_assert(offsetof(hipDeviceProp_t, name) == 0 && sizeof(hipDeviceProp_t::name) == kPropsNameSize);
static_assert(sizeof(hipDeviceProp_t::gcnArchName) == kPropsArchSize);
}  // namespace
}  // namespace tilelab::hw::hip
