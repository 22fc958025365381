// The HIP backend for AMD GPUs (MI350 = gfx950, MI300 = gfx942): the HIP
// runtime is loaded at run time, so tilelab builds without ROCm and says
// clearly when there is none.  The library tried, in order:
//   $TILELAB_HIP_LIBRARY (a path; the tests point it at the emulator-backed
//   shim), libamdhip64.so.7 (ROCm 7), .so.6 (ROCm 6), libamdhip64.so, then
//   /opt/rocm/lib/libamdhip64.so.
// Code objects are hsaco files; a code object for another gfx than the
// device's is refused naming both.  Arguments are laid out by the code
// object's metadata (sim/isa/kernel_arguments) and passed as one buffer
// (HIP_LAUNCH_PARAM_BUFFER_POINTER); the runtime adds the hidden ones.
// Marks are HIP events.
#pragma once

#include "hw/device.hpp"

namespace tilelab::hw {

// Opens the runtime and device `ordinal`.  Throws NoDevice when no runtime
// loads, it finds no GPU, or the device is not an AMD GPU; DeviceError when
// a call fails.
std::unique_ptr<Device> open_hip_device(int ordinal = 0);

}  // namespace tilelab::hw
