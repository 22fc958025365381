// The CUDA driver backend: libcuda.so.1 is opened at run time (dlopen), so the
// binary builds and starts everywhere and says clearly when there is no
// NVIDIA driver.  Every driver call's result is checked; a failure throws
// DeviceError naming the call and the driver's error name.
#pragma once

#include "hw/device.hpp"

namespace tilelab::hw {

// Opens the driver and a context on device `ordinal`.  Throws DeviceError if
// libcuda.so.1 is missing or no device exists.
std::unique_ptr<Device> open_cuda_device(int ordinal = 0);

}  // namespace tilelab::hw
