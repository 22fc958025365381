// The CUDA driver backend: libcuda.so.1 is opened at run time (dlopen), so the
// binary builds and starts everywhere and says clearly when there is no
// NVIDIA driver or GPU.  Every driver call's result is checked; a failure
// throws DeviceError naming the call and the driver's error name.  Code
// objects are cubins or PTX text (the driver compiles PTX for the device);
// arguments are placed by the driver's own parameter table
// (cuFuncGetParamInfo) and passed as one buffer; marks are CUDA events.
#pragma once

#include "hw/device.hpp"

namespace tilelab::hw {

// Opens the driver and a context on device `ordinal`.  Throws NoDevice if
// libcuda.so.1 is missing or there is no such device.
std::unique_ptr<Device> open_cuda_device(int ordinal = 0);

}  // namespace tilelab::hw
